import type { ActivityDeps } from './deps';
import { findDocument } from '../db/documents';
import { recordEmailAttempt } from '../db/document-email';
import { findCompanyById } from '../db/companies';
import { DEFAULT_EMAIL_SETTINGS, findCompanyEmailSettings } from '../db/company-email';
import { PRINTABLE_TYPES } from '../documents/printed';
import { renderDocumentPdf } from '../buyers/printed';
import { composeBuyerEmail, sendMail } from '../buyers/mail';
import { mailRoute } from '../buyers/mail-route';
import { consultaUrl } from '../buyers/links';
import { mailCeiling } from '../buyers/mail-ceiling';
import { logger } from '../core/logger';
import type { BuyerEmailActivities } from '../workflows/buyer-email-types';
import { afterEmailAttempt, isEmailSent, type EmailAttemptOutcome } from '../lifecycle/email';

/**
 * The I/O of the buyer's e-mail (workflows/buyer-email.ts): reads the document, its company's settings and the
 * addresses from PostgreSQL, renders the PDF as GET …/pdf serves it, sends through the company's SMTP server or the
 * service's, and records the attempt on the document.
 */
export function createBuyerEmailActivities(deps: ActivityDeps): BuyerEmailActivities {
  return {
    async attemptBuyerEmail(externalId, { final }) {
      const doc = await findDocument(deps.db, externalId);
      // Nothing recorded: no address named, or an e-mail already sent (an activity run again after a lost answer).
      const unrecorded = (outcome: EmailAttemptOutcome) => ({ status: afterEmailAttempt(outcome, final).status });
      if (!doc?.email_to?.length || !doc.email_status) return unrecorded('off');
      if (isEmailSent(doc.email_status)) return unrecorded('sent');
      const company = await findCompanyById(deps.db, doc.company_id);
      if (!company) throw new Error(`company of document ${externalId} does not exist`);
      const settings = (await findCompanyEmailSettings(deps.db, company.id)) ?? DEFAULT_EMAIL_SETTINGS;

      /** Records the attempt as lifecycle/email.ts decides it, and answers the e-mail's status to the workflow. */
      const record = async (outcome: EmailAttemptOutcome, error: string | null, note: string) => {
        const { status, counted } = afterEmailAttempt(outcome, final);
        await recordEmailAttempt(deps.db, doc.id, { status, error, counted });
        if (error === null) logger.info({ externalId, ruc: doc.ruc, recipients: doc.email_to!.length }, note);
        else logger.warn({ externalId, ruc: doc.ruc, status, error }, note);
        return { status };
      };
      const decide = (outcome: 'off' | 'permanent', error: string) => record(outcome, error, 'buyer e-mail not sent');
      if (!settings.enabled)
        return decide(
          'off',
          'the company sends no e-mail to its buyers (PATCH /v1/companies/{ruc}/email enabled: false)',
        );
      const route = await mailRoute(deps, settings, company.business_name);
      if (!route.ok) return decide(route.outcome, route.error);

      // The account's hourly ceiling (buyers/mail-ceiling.ts), taken right before sending: over it, the e-mail waits
      // for the workflow's next attempt, and the last one fails saying why.
      const ceiling = await mailCeiling(deps.db, deps.config, {
        accountId: company.account_id,
        demo: doc.environment === '01',
        take: true,
      });
      if (ceiling.reached)
        return record('held', `not sent: ${ceiling.message}`, 'buyer e-mail held by the account ceiling');

      // Read once from wherever they are kept (files/): the PDF, the XML and the CDR attachments share them.
      const files = deps.files.of(doc);
      const message = composeBuyerEmail(
        doc,
        company,
        {
          pdf: PRINTABLE_TYPES.has(doc.doc_type)
            ? await renderDocumentPdf(deps.db, doc, files, settings.format, { cache: deps.config.pdfCache })
            : null,
          xml: await files.xml(),
          cdrZip: settings.attach_cdr ? await files.cdr() : null,
        },
        {
          // The company's own server sends as the company (its `from` is required with it); the service's as the service, named after the company.
          from: route.from,
          replyTo: settings.reply_to,
          to: doc.email_to,
          consultaUrl: consultaUrl(deps.config),
          ownServer: route.own,
        },
      );
      const sent = await sendMail(route.server, message, {
        caFile: deps.config.buyers.smtpCaFile,
        connectTo: route.connectTo,
      });
      if (sent.sent) return record('sent', null, 'buyer e-mail sent');
      return record(sent.permanent ? 'permanent' : 'transient', sent.error, 'buyer e-mail attempt failed');
    },
  };
}
