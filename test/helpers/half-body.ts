/**
 * A request written on a raw socket in two halves with a pause between: what the server said
 * before the second half (nothing, where it reads the whole body before answering) and after.
 */
import { connect } from 'node:net';

export async function sendInHalves(
  url: string,
  head: string,
  body: Buffer,
): Promise<{ before: string; after: string }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.write(`${head}Content-Length: ${body.length}\r\n\r\n`);
  socket.write(body.subarray(0, body.length / 2));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = answer;
  socket.end(body.subarray(body.length / 2));
  await new Promise((resolve) => socket.once('close', resolve));
  return { before, after: answer };
}
