import { enumOf, obj, str } from './shared';

/** The buyers' consultation page and its signed file links. */
export function consultaPaths() {
  return {
    '/consulta': {
      get: {
        tags: ['buyers'],
        summary:
          "The buyers' consultation page (HTML, Spanish, no token): a form with the six facts printed on every document",
        operationId: 'consulta-form',
        responses: { 200: { description: 'The form', content: { 'text/html': { schema: str() } } } },
      },
      post: {
        tags: ['buyers'],
        summary:
          'Look a document up by RUC, type, series, number, issue date and total: its state and signed links (1 h) to its PDF, XML and CDR. Any mismatch reads like a document that does not exist; rate limited per client address (CHASQUI_CONSULTA_RATE)',
        operationId: 'consulta-lookup',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: obj(
                {
                  ruc: str(),
                  tipo: str(),
                  serie: str(),
                  numero: str(),
                  fecha: str({ format: 'date' }),
                  total: str(),
                },
                ['ruc', 'tipo', 'serie', 'numero', 'fecha'],
              ),
            },
          },
        },
        responses: {
          200: {
            description: 'Found: the state in words and the download links',
            content: { 'text/html': { schema: str() } },
          },
          404: {
            description: 'No document with these facts (the same page whatever did not match)',
            content: { 'text/html': { schema: str() } },
          },
          422: {
            description: 'A field is malformed (the form says which)',
            content: { 'text/html': { schema: str() } },
          },
          429: {
            description: 'Too many lookups from this address; Retry-After',
            content: { 'text/html': { schema: str() } },
          },
        },
      },
    },
    '/consulta/estilos.css': {
      get: {
        tags: ['buyers'],
        summary: "The page's stylesheet",
        operationId: 'consulta-styles',
        responses: { 200: { description: 'CSS', content: { 'text/css': { schema: str() } } } },
      },
    },
    '/consulta/archivo/{id}/{kind}': {
      get: {
        tags: ['buyers'],
        summary:
          'A file behind a signed link of the consultation page (expires in 1 h); rate limited per client address (CHASQUI_CONSULTA_DOWNLOAD_RATE) and per document (CHASQUI_CONSULTA_DOCUMENT_RATE)',
        operationId: 'consulta-file',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: str() },
          { name: 'kind', in: 'path', required: true, schema: enumOf(['pdf', 'xml', 'cdr']) },
          { name: 'vence', in: 'query', required: true, schema: str() },
          { name: 'firma', in: 'query', required: true, schema: str() },
        ],
        responses: {
          200: {
            description: 'The file (RUC-TT-SERIE-NUMERO.pdf/.xml, R-….zip)',
            content: {
              'application/pdf': { schema: str() },
              'application/xml': { schema: str() },
              'application/zip': { schema: str() },
            },
          },
          404: {
            description: 'Expired, altered or unknown link: a page saying so',
            content: { 'text/html': { schema: str() } },
          },
          429: {
            description: 'Too many downloads from this address, or of this document; Retry-After',
            content: { 'text/html': { schema: str() } },
          },
        },
      },
    },
  };
}
