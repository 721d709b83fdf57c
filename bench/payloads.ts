import { limaDate } from '../core/lima';

/**
 * The invoice every benchmark issues: a factura of `lines` taxed lines (every `exoneratedEvery`-th line exonerated,
 * when given), so figures from bench:sign, bench:documents and bench:issue describe the same document.
 */
export function invoicePayload(
  lines: number,
  options: { exoneratedEvery?: number; serie?: string; correlativo?: string; ruc?: string } = {},
): Record<string, any> {
  const exonerated = (i: number) =>
    !!options.exoneratedEvery && i % options.exoneratedEvery === options.exoneratedEvery - 1;
  return {
    tipoDoc: '01',
    serie: options.serie ?? 'F001',
    correlativo: options.correlativo ?? '1',
    // Today in Lima: SUNAT's sending window (on in `chasqui start`) refuses old dates.
    fechaEmision: limaDate(new Date()),
    horaEmision: '10:30:00',
    tipoMoneda: 'PEN',
    formaPago: 'Contado',
    emisor: {
      ruc: options.ruc ?? '20123456786',
      razonSocial: 'Comercial Andina S.A.C.',
      establecimiento: {
        ubigeo: '150101',
        codLocal: '0000',
        departamento: 'LIMA',
        provincia: 'LIMA',
        distrito: 'LIMA',
        direccion: 'Av. Abancay 123',
      },
    },
    cliente: { tipoDoc: '6', numDoc: '20600000005', nombre: 'Distribuidora del Sur S.A.' },
    items: Array.from({ length: lines }, (_, i) => ({
      codigo: `P${String(i + 1).padStart(4, '0')}`,
      descripcion: `Producto de prueba número ${i + 1}`,
      cantidad: (i % 7) + 1,
      unidad: 'NIU',
      valorUnitario: 10 + (i % 13) * 1.25,
      afectacionIgv: exonerated(i) ? '20' : '10',
      ...(exonerated(i) ? { porcentajeIgv: 0 } : {}),
    })),
  };
}

/** One JSON call to chasqui's API as the benches make it, with the token; the body parsed when it is JSON. */
export async function post(
  url: string,
  token: string,
  body: unknown,
  method = 'POST',
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}
