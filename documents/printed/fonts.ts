/**
 * The embedded fonts: Noto Sans regular and bold (SIL Open Font License 1.1, shipped by the npm package
 * `@expo-google-fonts/noto-sans`), which cover Spanish (á é í ó ú ü ñ Ñ ¿ ¡ ° « » —). Each PDF embeds the subset it uses.
 * The fonts are parsed once per process and shared by every PDF: parsing them per document was most of its cost.
 */
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';

const FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
} as const;

export type FontName = keyof typeof FILES;
type Loaded = Record<FontName, fontkit.Font>;

let loaded: Loaded | null = null;

export function fonts(): Loaded {
  if (!loaded) {
    const open = (file: string) => fontkit.create(readFileSync(require.resolve(file))) as fontkit.Font;
    loaded = { regular: open(FILES.regular), bold: open(FILES.bold) };
  }
  return loaded;
}
