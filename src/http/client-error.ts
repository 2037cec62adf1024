// Requests Node's HTTP parser refuses before Fastify sees them (malformed HTTP, a request line or
// headers over the size limit, a timeout): answered with the table's JSON error shape (docs/api.md §2.2)
// instead of the framework's own body, then the connection is closed.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { EntiaError } from '../domain/errors.js';
import { errorBody } from './reply-error.js';
import { SECURITY_HEADERS } from './headers.js';

const SECURITY_LINES = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');

export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = error.code === 'HPE_HEADER_OVERFLOW' ? 'request-header-too-large'
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request-timeout' : 'malformed-request';
  const entia = new EntiaError(code, undefined);
  const body = JSON.stringify(errorBody(entia));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${entia.status} ${STATUS_CODES[entia.status]}\r\n` +
      'Content-Type: application/json\r\nContent-Language: en\r\n' + SECURITY_LINES +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
