/**
 * Foreign goods (motivo 19, SUNAT's GRE revisions of 2024 and 2025): they come through a port or airport, with the
 * customs declaration (50 DAM, 52 DS), the cargo manifest (91) or the port terminal's appointment (92); containers
 * and the manifest's line data (properties 7024–7028) belong to them.
 */
import { RELATED_DOCUMENTS } from './catalogs';
import type { DespatchPayload, Fail } from './types';

/** What each part of the rules reads: the guide, whether its goods are foreign, its related documents by type. */
interface Goods {
  d: DespatchPayload;
  foreign: boolean;
  /** How many related documents of these types the guide carries. */
  count: (...types: string[]) => number;
  /** A cargo manifest (91) is among them. */
  manifest: boolean;
  fail: Fail;
}

/** Every rule of foreign goods, and of their documents, containers and manifest lines on any other guide. */
export function checkForeignGoods(d: DespatchPayload, fail: Fail): void {
  const foreign = d.envio.motivo === '19';
  const count = (...types: string[]) => d.documentosRelacionados.filter((r) => types.includes(r.tipo)).length;
  const goods: Goods = { d, foreign, count, manifest: count('91') > 0, fail };
  onlyForForeignGoods(goods);
  if (!foreign) return;
  foreignDocuments(goods);
  manifestLines(goods);
}

/** What only foreign goods carry: customs documents, a whole DAM or DS, whole containers, manifest lines. */
function onlyForForeignGoods({ d, foreign, manifest, fail }: Goods): void {
  const e = d.envio;
  for (const [i, r] of d.documentosRelacionados.entries()) {
    if (RELATED_DOCUMENTS[r.tipo].customs && !foreign) {
      fail(
        '3445',
        `documentosRelacionados[${i}].tipo ${r.tipo} only accompanies foreign goods (motivo 19)`,
        `documentosRelacionados[${i}].tipo`,
      );
    } else if (foreign && !RELATED_DOCUMENTS[r.tipo].customs) {
      fail(
        '3445',
        `documentosRelacionados[${i}].tipo ${r.tipo} cannot accompany foreign goods (motivo 19): only 50, 52, 91 or 92`,
        `documentosRelacionados[${i}].tipo`,
      );
    }
  }
  if (e.trasladoTotalDAMoDS && !foreign)
    fail('3392', 'envio.trasladoTotalDAMoDS only applies to foreign goods (motivo 19)', 'envio.trasladoTotalDAMoDS');
  if (e.contenedorManifiestoCarga && !(foreign && manifest)) {
    fail(
      '3478',
      'envio.contenedorManifiestoCarga needs motivo 19 and the cargo manifest (documentosRelacionados tipo 91)',
      'envio.contenedorManifiestoCarga',
    );
  }
  for (const [i, item] of d.items.entries()) {
    if (item.manifiesto && !foreign)
      fail(
        '3473',
        `items[${i}].manifiesto (properties 7024–7028) only applies to foreign goods (motivo 19)`,
        `items[${i}].manifiesto`,
      );
  }
}

/** Foreign goods: their port, the establishment receiving them, the documents they come with, their packages. */
function foreignDocuments({ d, count, manifest, fail }: Goods): void {
  const e = d.envio;
  if (!e.puerto)
    fail('3483', 'envio.puerto (the port or airport the goods come through) is required for motivo 19', 'envio.puerto');
  if (!e.llegada.codLocal)
    fail(
      '3369',
      'envio.llegada.codLocal and envio.llegada.ruc (the establishment receiving the goods) are required for motivo 19',
      'envio.llegada.codLocal',
    );
  else if (e.llegada.ruc !== d.destinatario.numDoc)
    fail('3488', "envio.llegada.ruc must be the destinatario's RUC for motivo 19", 'envio.llegada.ruc');
  if (count('50', '52', '91', '92') === 0)
    fail(
      '3493',
      "motivo 19 needs the DAM (50), the DS (52), the cargo manifest (91) or the terminal's appointment (92) in documentosRelacionados",
      'documentosRelacionados',
    );
  if (count('91') > 1)
    fail('3494', 'documentosRelacionados may hold one cargo manifest (91)', 'documentosRelacionados');
  if (count('92') > 1) fail('3612', 'documentosRelacionados may hold one appointment (92)', 'documentosRelacionados');
  if (count('92') > 0 && count('50', '52', '91') > 0)
    fail('3613', 'an appointment (92) goes alone, without DAM, DS or cargo manifest', 'documentosRelacionados');
  if (manifest && count('50', '52') > 0)
    fail('3463', 'a cargo manifest (91) goes without DAM or DS', 'documentosRelacionados');
  if (e.trasladoTotalDAMoDS && count('91', '92') > 0)
    fail(
      '3485',
      'envio.trasladoTotalDAMoDS does not apply with a cargo manifest (91) or appointment (92)',
      'envio.trasladoTotalDAMoDS',
    );
  if (e.contenedorManifiestoCarga && e.contenedores.length === 0)
    fail(
      '3487',
      'envio.contenedores must list the containers of envio.contenedorManifiestoCarga',
      'envio.contenedores',
    );
  // Under a manifest the containers stand for the packages: bultos only without them (3419 / 3621).
  if (manifest && e.contenedores.length > 0 && e.bultos)
    fail('3621', 'envio.bultos must not be given when envio.contenedores lists the containers', 'envio.bultos');
  if (manifest && e.contenedores.length === 0 && !e.bultos)
    fail('3419', 'envio.bultos (number of packages) is required without containers', 'envio.bultos');
  if (e.trasladoTotalDAMoDS && e.contenedores.length === 0 && !e.bultos)
    fail('3631', 'envio.bultos is required for a whole DAM or DS without containers', 'envio.bultos');
}

/** Foreign goods under a manifest or in whole containers: each line's manifest data, each full container's seal. */
function manifestLines({ d, manifest, fail }: Goods): void {
  const e = d.envio;
  const declared = new Set(e.contenedores.map((c) => c.numero));
  for (const [i, item] of d.items.entries()) {
    const m = item.manifiesto ?? {};
    const at = `items[${i}].manifiesto`;
    if (manifest && !m.documentoTransporte)
      fail(
        '3490',
        `${at}.documentoTransporte (property 7024) is required with a cargo manifest`,
        `${at}.documentoTransporte`,
      );
    if (manifest && m.detalle === undefined)
      fail('3491', `${at}.detalle (property 7025) is required with a cargo manifest`, `${at}.detalle`);
    if (e.contenedorManifiestoCarga) {
      if (!m.contenedor)
        fail('3480', `${at}.contenedor (property 7026) is required for whole containers`, `${at}.contenedor`);
      else if (!declared.has(m.contenedor))
        fail('3486', `${at}.contenedor ${m.contenedor} is not in envio.contenedores`, `${at}.contenedor`);
      if (m.contenedorVacio === undefined)
        fail('3482', `${at}.contenedorVacio (property 7028) is required for whole containers`, `${at}.contenedorVacio`);
      else if (!m.contenedorVacio && !m.precinto)
        fail('3481', `${at}.precinto (property 7027) is required for a full container`, `${at}.precinto`);
    }
  }
  if (e.contenedorManifiestoCarga) {
    for (const [i, c] of e.contenedores.entries()) {
      const full = d.items.some(
        (item) => item.manifiesto?.contenedor === c.numero && item.manifiesto.contenedorVacio === false,
      );
      if (full && !c.precinto)
        fail(
          '3495',
          `envio.contenedores[${i}].precinto is required: container ${c.numero} is full`,
          `envio.contenedores[${i}].precinto`,
        );
    }
  }
}
