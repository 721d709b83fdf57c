import { enumOf, externalIdParameter, json, ref, signing, str } from './shared';

const FILE_ERRORS = {
  409: json(
    'The stored file does not match the SHA-256 or size its document records, or is missing from the store: the tax record needs restoring from a backup (chasqui_file_integrity_failures_total counts it)',
    ref('Error'),
  ),
  503: json('The file store is unavailable; Retry-After says when to try again', ref('Error')),
};
/** A document's signed XML, CDR and PDF. */
export function filePaths() {
  return {
    '/v1/cpe/{external_id}/xml': {
      parameters: [externalIdParameter],
      get: signing(
        {
          summary: 'The signed XML exactly as stored and sent (Content-Disposition: RUC-TT-SERIE-NUMERO.xml)',
          operationId: 'get-document-xml',
          responses: {
            200: { description: 'Signed UBL XML', content: { 'application/xml': { schema: str() } } },
            ...FILE_ERRORS,
          },
        },
        [404],
      ),
    },
    '/v1/cpe/{external_id}/cdr': {
      parameters: [externalIdParameter],
      get: signing(
        {
          summary:
            'The CDR zip exactly as the authority returned it (R-RUC-TT-SERIE-NUMERO.zip); 404 while there is none',
          operationId: 'get-document-cdr',
          responses: {
            200: {
              description: 'CDR zip',
              content: { 'application/zip': { schema: str({ contentMediaType: 'application/zip' }) } },
            },
            ...FILE_ERRORS,
          },
        },
        [404],
      ),
    },
    '/v1/cpe/{external_id}/pdf': {
      parameters: [externalIdParameter],
      get: signing(
        {
          summary:
            'The printed representation (PDF) of an invoice, receipt, note or despatch guide, rendered from the signed XML',
          operationId: 'get-document-pdf',
          parameters: [
            {
              name: 'format',
              in: 'query',
              required: false,
              schema: { ...enumOf(['a4', 'ticket']), default: 'a4' },
              description: 'a4, or ticket: an 80 mm roll as tall as the content',
            },
          ],
          responses: {
            200: {
              description:
                "The PDF; Content-Disposition names it with SUNAT's file name (RUC-TT-SERIE-NUMERO.pdf; the ticket RUC-TT-SERIE-NUMERO-ticket.pdf)",
              headers: {
                'Content-Disposition': {
                  schema: str({ examples: ['attachment; filename="20123456786-01-F001-245.pdf"'] }),
                },
              },
              content: { 'application/pdf': { schema: str({ contentMediaType: 'application/pdf' }) } },
            },
            ...FILE_ERRORS,
            429: json(
              "The account's queue of PDFs, certificates and external XML is full (data.bound account_queue), or its rate limit is reached; Retry-After says when to try again",
              ref('Error'),
            ),
            503: json(
              "The file store is unavailable, the service's queue of heavy work is full (data.bound pool_queue) or the PDF took longer than its bound to render; Retry-After says when to try again",
              ref('Error'),
            ),
          },
        },
        [404, 422],
      ),
    },
  };
}
