import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { ApiError } from '../../errors';
import { changeSetting, type SettingName } from '../../companies/settings';
import { html, notice } from '../html';
import { consoleActor, type Viewer } from '../context';
import { companyPath, writeCompanyPage, type PanelPage } from './frame';
import { refusalWords, VALUE_WORDS } from './company-words';
import { csrfField, selectField } from './fields';

/**
 * The settings tab (issue 42 item 3, docs/panel.md): each of the company's modes its own form, its rule said beside
 * it, saved through `changeSetting` as `PATCH /v1/companies/{ruc}/<setting>` is (audited old → new).
 */

interface PageSetting {
  name: SettingName;
  column: 'environment' | 'sending_mode' | 'receipts_mode' | 'response_mode' | 'destination' | 'signing';
  /** The PATCH body's field. */
  field: 'mode' | 'destination' | 'signing' | 'environment';
  label: string;
  rule: string;
}

const PAGE_SETTINGS: readonly PageSetting[] = [
  {
    name: 'sending',
    column: 'sending_mode',
    field: 'mode',
    label: 'Envío a SUNAT',
    rule: 'Automático: cada documento se envía al firmarlo. Manual: espera a que su sistema pida el envío.',
  },
  {
    name: 'receipts',
    column: 'receipts_mode',
    field: 'mode',
    label: 'Boletas',
    rule: 'Una a una: cada boleta se envía sola. Por resumen diario: las boletas esperan el resumen del día.',
  },
  {
    name: 'response',
    column: 'response_mode',
    field: 'mode',
    label: 'Respuesta al emitir',
    rule: 'Esperando a SUNAT: el envío espera la constancia (CDR); pensado solo para migrar desde otro proveedor.',
  },
  {
    name: 'destination',
    column: 'destination',
    field: 'destination',
    label: 'Destino',
    rule: 'OSE propia: cargue antes sus credenciales. OSE del proveedor: el vínculo se tramita con la clave SOL. Con firma externa el destino no puede dejar la OSE del proveedor.',
  },
  {
    name: 'signing',
    column: 'signing',
    field: 'signing',
    label: 'Firma',
    rule: 'La firma externa (su sistema envía el XML ya firmado) solo se admite con el destino «OSE del proveedor».',
  },
  {
    name: 'environment',
    column: 'environment',
    field: 'environment',
    label: 'Entorno',
    rule: 'Demo: pruebas sin valor tributario. Una empresa en producción no puede volver a demo.',
  },
];

const SAVED = new Map(PAGE_SETTINGS.map((s) => [s.name as string, `${s.label}: guardado.`]));

/** A refused setting is named above the forms (its reason is beside its field); a form without one says so. */
const refusedNotice = (name: SettingName | null, reason: string) =>
  name ? `${PAGE_SETTINGS.find((s) => s.name === name)!.label}: no se guardó.` : reason;

function settingsPage(
  ctx: Context,
  viewer: Viewer,
  company: CompanyRow,
  status = 200,
  refused: { name: SettingName | null; reason: string; value?: string } | null = null,
): void {
  const done = SAVED.get(String(ctx.query.hecho ?? ''));
  // A refused form keeps what was chosen, beside the reason; the others show the company's values.
  const chosenValue = (s: PageSetting) =>
    refused?.name === s.name && refused.value !== undefined ? refused.value : company[s.column];
  const forms = PAGE_SETTINGS.map(
    (s) =>
      html`<form class="card setting" method="post" action="${companyPath(company.ruc, 'settings')}">
        ${csrfField(viewer)}
        ${selectField(s.name, s.label, VALUE_WORDS[s.column], chosenValue(s), {
          hint: s.rule,
          error: refused?.name === s.name ? refused.reason : null,
        })}
        <button type="submit">Guardar ${s.label[0].toLowerCase()}${s.label.slice(1)}</button>
      </form>`,
  );
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'settings',
    html`${done && status === 200 ? notice('ok', done) : ''}
      ${refused ? notice('refused', refusedNotice(refused.name, refused.reason)) : ''}
      <div class="settings">${forms}</div>`,
    status,
  );
}

export const settings: PanelPage = {
  get: async (ctx, _deps, viewer, company) => settingsPage(ctx, viewer, company),
  async post(ctx, deps, viewer, company, form) {
    // Each form sends one setting, under the setting's own name.
    const chosen = PAGE_SETTINGS.find((s) => form.has(s.name));
    if (!chosen)
      return settingsPage(ctx, viewer, company, 422, { name: null, reason: 'Elija un ajuste del formulario.' });
    try {
      await changeSetting(
        deps,
        company,
        chosen.name,
        { [chosen.field]: form.get(chosen.name) },
        consoleActor(ctx, viewer.session),
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      const value = form.get(chosen.name) ?? '';
      return settingsPage(ctx, viewer, company, 422, { name: chosen.name, reason: refusalWords(err.message), value });
    }
    ctx.status = 303;
    ctx.redirect(`${companyPath(company.ruc, 'settings')}?hecho=${chosen.name}`);
  },
};
