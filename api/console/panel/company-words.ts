import type { ChecklistItemId, ChecklistLevel, ChecklistState } from '../../companies/onboarding';
import type { CompanyTab } from './frame';
import { DESTINATION_WORDS } from '../words';

/**
 * The Spanish of the panel's company pages (companies, overview, settings): the checklist, the settings' values and
 * rules, the audit log's actions and fields, and the API's refusals these pages can meet (English in the API).
 */

export const CHECKLIST_ITEMS: Readonly<Record<ChecklistItemId, { title: string; says: string; tab?: CompanyTab }>> = {
  certificate: {
    title: 'Certificado digital',
    says: 'El plan 02 firma con un certificado asignado a la empresa; con el plan 01 firma el del proveedor, salvo que suba el suyo.',
    tab: 'certificate',
  },
  sol_credentials: {
    title: 'Clave SOL',
    says: 'El usuario y la clave SOL principal envían a SUNAT en producción y hacen los trámites del portal.',
    tab: 'credentials',
  },
  sol_secondary: {
    title: 'Usuario SOL secundario',
    says: 'Con certificado propio, SUNAT recibe los envíos de un usuario secundario.',
    tab: 'credentials',
  },
  pse_authorization: {
    title: 'Autorización del PSE',
    says: 'Trámite en el portal de SUNAT para que el servicio firme por la empresa; se hace solo con la clave SOL.',
    tab: 'credentials',
  },
  ose: {
    title: 'Cuenta de OSE',
    says: 'Con OSE propia, sus credenciales; con la OSE del proveedor, el vínculo en el portal de SUNAT, que se hace solo con la clave SOL.',
    tab: 'credentials',
  },
  gre_credentials: {
    title: 'Credenciales GRE',
    says: 'El cliente de la API de guías de SUNAT (id y secreto): para emitir guías de remisión.',
    tab: 'credentials',
  },
  quota: {
    title: 'Saldo de firmas',
    says: 'El plan 01 descuenta firmas del saldo de la cuenta por cada documento en producción; recárguelo con su proveedor.',
  },
  webhook: {
    title: 'Webhook',
    says: 'Avisa a su sistema cuando SUNAT responde por cada documento.',
    tab: 'webhook',
  },
  email: {
    title: 'Correo a compradores',
    says: 'Remitente y servidor propios para enviar los comprobantes a sus compradores; sin ellos se usa el del servicio.',
    tab: 'email',
  },
};

export const CHECKLIST_STATES: Readonly<Record<ChecklistState, string>> = {
  done: 'Listo',
  missing: 'Falta',
  waiting: 'En trámite',
  failing: 'Falla',
};

export const CHECKLIST_LEVELS: Readonly<Record<ChecklistLevel, string>> = {
  first: 'antes del primer documento aceptado',
  production: 'antes de producción',
  recommended: 'recomendado',
};

/** Each setting value's words, by the companies column (or API field) that holds it. */
export const VALUE_WORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  environment: { '01': 'demo', '02': 'producción' },
  plan_type: { '01': 'plan 01 (por documento)', '02': 'plan 02 (por certificado)' },
  sending_mode: { automatic: 'automático', manual: 'manual' },
  receipts_mode: { individual: 'una a una', summary: 'por resumen diario' },
  response_mode: { no_wait: 'sin esperar a SUNAT', wait: 'esperando a SUNAT' },
  destination: DESTINATION_WORDS,
  signing: { provider: 'el servicio firma', external: 'externa (su sistema envía el XML firmado)' },
};

/** The audit log's fields in Spanish; a field not here shows its code (an identifier, not a word). */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  business_name: 'razón social',
  plan_type: 'plan',
  environment: 'entorno',
  destination: 'destino',
  signing: 'firma',
  sending_mode: 'envío',
  receipts_mode: 'boletas',
  response_mode: 'respuesta',
  sol_user: 'usuario SOL',
  sol_password: 'clave SOL',
  sol_secondary_user: 'usuario SOL secundario',
  sol_secondary_password: 'clave SOL secundaria',
  ose_url: 'dirección de la OSE',
  ose_user: 'usuario de la OSE',
  ose_password: 'clave de la OSE',
  gre_client_id: 'cliente GRE',
  gre_client_secret: 'secreto GRE',
  register_igv_special_rate: 'padrón de tasa especial',
  register_product_code: 'padrón de código de producto',
  signing_tokens: 'tokens de firma',
  certificate: 'certificado',
};
export const fieldWord = (field: string) => FIELD_WORDS[field] ?? field;

/** A recorded value in Spanish: a setting's code by its words, nothing as «—». */
export function valueWord(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  return VALUE_WORDS[field]?.[String(value)] ?? String(value);
}

/** Every action the audit log records of a company, in Spanish (test/console/panel-companies.test.ts checks each). */
const ACTION_WORDS: Readonly<Record<string, string>> = {
  'company.create': 'Creó la empresa',
  'company.delete': 'Eliminó la empresa',
  'company.plan': 'Cambió el plan',
  'company.environment': 'Cambió el entorno',
  'company.sending': 'Cambió el modo de envío',
  'company.receipts': 'Cambió el modo de las boletas',
  'company.registers': 'Cambió los padrones',
  'company.response': 'Cambió el modo de respuesta',
  'company.destination': 'Cambió el destino',
  'company.signing': 'Cambió la firma',
  'company.sol_credentials': 'Cargó la clave SOL',
  'company.ose_credentials': 'Cargó las credenciales de la OSE',
  'company.gre_credentials': 'Cargó las credenciales GRE',
  'company.certificate': 'Cargó el certificado',
  'company.email': 'Cambió el correo a compradores',
  'company.logo': 'Cambió el logo',
  'token.create': 'Creó un token de firma',
  'token.revoke': 'Revocó un token de firma',
  'token.roll': 'Rotó un token de firma',
  'webhook.set': 'Configuró el webhook',
  'webhook.disable': 'Desactivó el webhook',
  'webhook.rotate_secret': 'Cambió el secreto del webhook',
  'document.void': 'Anuló un documento',
};
export const AUDITED_ACTIONS = Object.keys(ACTION_WORDS);
export const actionWord = (action: string) => ACTION_WORDS[action] ?? 'Otro cambio';

/** The API's refusals of a company's creation or settings (api/companies/shared.ts, settings.ts), in Spanish. */
const REFUSALS: Readonly<Record<string, string>> = {
  'Externally signed documents can only go through the provider OSE':
    'La firma externa solo se admite con el destino «OSE del proveedor»: cambie primero el destino.',
  'Sending through an own OSE needs its credentials first: PATCH /v1/companies/{ruc}/ose-credentials':
    'Para enviar por una OSE propia, cargue antes sus credenciales en la pestaña Credenciales.',
  'A company in production cannot return to demo': 'Una empresa en producción no puede volver a demo.',
};
const REFUSED = 'No se pudo guardar: revise el valor elegido.';
export const refusalWords = (message: string) => REFUSALS[message] ?? REFUSED;

/** What each field of the creation form must hold, said beside it when the API's validation refuses it. */
export const FIELD_RULES: Readonly<Record<string, string>> = {
  ruc: 'El RUC tiene 11 dígitos, empieza con 10, 15, 16, 17 o 20 y termina en un dígito verificador válido.',
  business_name: 'Escriba la razón social (hasta 250 caracteres).',
  plan_type: 'Elija el plan 01 o el plan 02.',
  environment: 'Elija demo o producción.',
  destination: 'Elija un destino de la lista.',
  signing: 'Elija una firma de la lista.',
};
