import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';

/** SUNAT's published files as the repository carries them (sunat/SOURCES.md). */
export const SUNAT_DIR = path.resolve(__dirname, '../../sunat');

export function sample(relative: string): string {
  return readFileSync(path.join(SUNAT_DIR, 'samples', relative), 'utf8');
}

/** A CDR zip shaped like SUNAT's: an empty `dummy/` folder and `R-<name>.xml`. */
export function cdrZip(name: string, xml: string): string {
  return Buffer.from(zipSync({ dummy: {}, [`R-${name}.xml`]: strToU8(xml) })).toString('base64');
}

export function sendBillResponse(base64: string): string {
  return `<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header/><soap-env:Body><br:sendBillResponse xmlns:br="http://service.sunat.gob.pe"><applicationResponse>${base64}</applicationResponse></br:sendBillResponse></soap-env:Body></soap-env:Envelope>`;
}

export function soapFault(code: string, text: string): string {
  return `<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body><soap-env:Fault><faultcode>soap-env:Client.${code}</faultcode><faultstring>${text}</faultstring></soap-env:Fault></soap-env:Body></soap-env:Envelope>`;
}

export interface Replay {
  url: string;
  requests: { url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A real HTTP server answering every request with the given status, body and content type. */
export async function replayServer(
  status: number,
  body: string,
  contentType = 'text/xml;charset=UTF-8',
): Promise<Replay> {
  const requests: Replay['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ol-ti-itcpfegem-beta/billService`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A raw TCP server that misbehaves at the socket level: `reset` after the request arrives, or `hang` forever. */
export async function rawServer(mode: 'reset' | 'hang'): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => {
      if (mode === 'reset') socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ol-ti-itcpfegem-beta/billService`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port with nothing listening on it (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/ol-ti-itcpfegem-beta/billService`;
}

export const CREDS = { ruc: '12345678912', solUser: 'MODDATOS', solPassword: 'moddatos' };
