import type { IncomingMessage, ServerResponse } from 'node:http';

/** Types of webhook-receiver.js for TypeScript callers (chasqui's own tests run the example through them). */
export function verifySignature(secret: string, rawBody: Buffer, signature: string | string[] | undefined): boolean;
export function createReceiver(options: {
  secret: string;
  onNotice: (notice: unknown, deliveryId: string) => unknown;
  seen?: Set<string>;
}): (req: IncomingMessage, res: ServerResponse) => void;
