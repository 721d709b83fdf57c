/** The console's and the panel's settings (docs/configuration.md), read for core/config.ts through env-values.ts. */
import { ConfigError, int, rateOf, type Rate } from './env-values';

export interface ConsoleSettings {
  /** How long a console session may sit idle before it is over (CHASQUI_CONSOLE_IDLE_HOURS, default 8). */
  consoleIdleSeconds: number;
  /** How long a console session lasts at most, however active (CHASQUI_CONSOLE_MAX_HOURS, default 12). */
  consoleMaxSeconds: number;
  /** Console sign-in attempts per client address (CHASQUI_CONSOLE_SIGNIN_RATE, N/S; default 10 per 300 s). */
  consoleSignInRate: Rate;
  /** The panel's test e-mails per company (CHASQUI_CONSOLE_TEST_EMAIL_RATE, default 5 per hour). */
  consoleTestEmailRate: Rate;
  /** The panel's export: most documents and ZIP bytes (CHASQUI_EXPORT_MAX_DOCUMENTS, _BYTES; docs/panel.md). */
  consoleExport: { maxDocuments: number; maxBytes: number };
}

export function consoleSettingsOf(env: NodeJS.ProcessEnv): ConsoleSettings {
  const settings: ConsoleSettings = {
    consoleIdleSeconds: int(env, 'CHASQUI_CONSOLE_IDLE_HOURS', 8) * 3600,
    consoleMaxSeconds: int(env, 'CHASQUI_CONSOLE_MAX_HOURS', 12) * 3600,
    consoleSignInRate: rateOf(env, 'CHASQUI_CONSOLE_SIGNIN_RATE', '10/300'),
    consoleTestEmailRate: rateOf(env, 'CHASQUI_CONSOLE_TEST_EMAIL_RATE', '5/3600'),
    consoleExport: {
      maxDocuments: int(env, 'CHASQUI_EXPORT_MAX_DOCUMENTS', 5000, 1),
      maxBytes: int(env, 'CHASQUI_EXPORT_MAX_BYTES', 256 * 1024 * 1024, 1),
    },
  };
  if (settings.consoleMaxSeconds < 3600) throw new ConfigError('CHASQUI_CONSOLE_MAX_HOURS must be at least 1');
  return settings;
}
