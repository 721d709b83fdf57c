'use strict';
/**
 * A chasqui webhook receiver (docs/webhooks.md). Plain Node, no dependencies:
 * - verifies X-Firma (hex HMAC-SHA256 of the raw body with your webhook secret) in constant time, and discards notices
 *   whose signature does not match (401);
 * - deduplicates by X-Entrega: a delivery already processed is acknowledged again but not processed twice;
 * - answers 2xx only once the notice is processed, so chasqui retries anything that failed (5 attempts, 30 s → 30 min).
 *
 * Run: CHASQUI_WEBHOOK_SECRET=<secret> PORT=8443 TLS_CERT_FILE=cert.pem TLS_KEY_FILE=key.pem node webhook-receiver.js
 * (without TLS_* it serves plain HTTP, for use behind a proxy that terminates https). Each processed notice is printed
 * as one JSON line on stdout.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');

const MAX_BODY_BYTES = 1024 * 1024;

/** True when `signature` (the X-Firma header) is the HMAC-SHA256 of the raw body bytes with `secret`. */
function verifySignature(secret, rawBody, signature) {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/**
 * A request handler. `onNotice(notice, deliveryId)` does your work (store the status, wake your invoice screen...);
 * if it throws, the receiver answers 500 and chasqui tries again later. `seen` remembers processed deliveries: keep it
 * in your database in production (a unique index on the X-Entrega value), not in memory.
 */
function createReceiver({ secret, onNotice, seen = new Set() }) {
  return (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      // Verify the bytes as received: re-serialising parsed JSON would not give the same signature.
      const raw = Buffer.concat(chunks);
      if (!verifySignature(secret, raw, req.headers['x-firma'])) return void res.writeHead(401).end();
      const deliveryId = String(req.headers['x-entrega'] ?? '');
      if (seen.has(deliveryId)) return void res.writeHead(200).end('already processed');
      try {
        await onNotice(JSON.parse(raw.toString('utf8')), deliveryId);
        seen.add(deliveryId);
        res.writeHead(200).end('ok');
      } catch (err) {
        res.writeHead(500).end();
      }
    });
  };
}

module.exports = { verifySignature, createReceiver };

if (require.main === module) {
  const secret = process.env.CHASQUI_WEBHOOK_SECRET;
  if (!secret) {
    console.error('set CHASQUI_WEBHOOK_SECRET to the secret PATCH /v1/companies/{ruc}/webhook answered');
    process.exit(2);
  }
  const handler = createReceiver({
    secret,
    onNotice: (notice, deliveryId) => {
      process.stdout.write(JSON.stringify({ delivery: deliveryId, notice }) + '\n');
    },
  });
  const tls = process.env.TLS_CERT_FILE && process.env.TLS_KEY_FILE
    ? { cert: fs.readFileSync(process.env.TLS_CERT_FILE), key: fs.readFileSync(process.env.TLS_KEY_FILE) }
    : null;
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  server.listen(Number(process.env.PORT ?? 8443), process.env.HOST ?? '127.0.0.1', () => {
    console.error(`listening on ${server.address().port}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
