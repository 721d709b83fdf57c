import type { CompanyRow } from '../../../db/companies';
import type { TestEmailOutcome, TestEmailRefusal } from '../../companies/test-email';
import { html, type Html } from '../html';
import type { Viewer } from '../context';
import { companyPath } from './frame';
import { csrfField, field, type FieldErrors } from './forms';

/** The e-mail tab's test e-mail: its form, and each refusal in Spanish with the status the page answers. */

export function testEmailForm(viewer: Viewer, company: CompanyRow, errors: FieldErrors, typed?: string): Html {
  return html`<h2>Correo de prueba</h2>
    <p>Se envía como a un comprador, con la configuración guardada, para comprobar que llega.</p>
    <form class="card" method="post" action="${companyPath(company.ruc, 'email')}/test">
      ${csrfField(viewer)}
      ${field('test', { name: 'to', label: 'Enviar a', type: 'email', required: true, maxlength: 254, value: typed }, errors)}
      <button type="submit">Enviar correo de prueba</button>
    </form>`;
}

const minutes = (seconds = 60) => Math.max(1, Math.ceil(seconds / 60));

const REFUSALS: Readonly<Record<TestEmailRefusal, (o: { resetSeconds?: number }) => { text: string; status: number }>> =
  {
    address: () => ({ text: 'Escriba una sola dirección de correo válida (nombre@dominio).', status: 422 }),
    rate: (o) => ({
      text: `Ya se enviaron los correos de prueba permitidos por ahora: podrá enviar otro en ${minutes(o.resetSeconds)} minuto(s).`,
      status: 429,
    }),
    ceiling: (o) => ({
      text: `La cuenta llegó a su límite de correos por hora: podrá enviar otro en ${minutes(o.resetSeconds)} minuto(s).`,
      status: 429,
    }),
    off: () => ({ text: 'No hay servidor de correo configurado: configure uno propio arriba.', status: 422 }),
    permanent: () => ({
      text: 'El servidor de correo rechazó el mensaje o su configuración no se puede usar: revise servidor, usuario, clave y remitente.',
      status: 502,
    }),
    transient: () => ({
      text: 'No se pudo entregar al servidor de correo ahora (conexión o respuesta temporal): inténtelo más tarde.',
      status: 502,
    }),
  };

/** What the page says beside the address, its status, and when a rate allows the next one (Retry-After). */
export function testEmailRefusal(outcome: Extract<TestEmailOutcome, { sent: false }>) {
  const { text, status } = REFUSALS[outcome.reason](outcome);
  return { text, status, retryAfter: status === 429 ? (outcome.resetSeconds ?? 60) : null };
}
