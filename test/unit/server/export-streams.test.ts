// The export streams (services/operations/export.ts): a failure while reading the rows (a database closing under an
// export job) fails the stream its reader consumes, in CSV as in JSON, instead of leaving it open for ever.
import t from 'tap'
import type { Readable } from 'node:stream'
import { csvStream, jsonStream } from '../../../src/services/operations/export.ts'

/** What a reader of the stream (the job's file writer) gets, whole. */
async function streamBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string))
  return Buffer.concat(chunks)
}

async function* failingAfterOne(): AsyncGenerator<{ a: string }> {
  yield { a: 'first' }
  throw new Error('the database closed')
}

t.test('CSV: the rows’ failure rejects the reader', async (t) => {
  await t.rejects(streamBytes(csvStream(failingAfterOne(), [{ key: 'a', header: 'A' }])), /the database closed/)
})

t.test('JSON: the rows’ failure rejects the reader', async (t) => {
  await t.rejects(streamBytes(jsonStream(failingAfterOne())), /the database closed/)
})

t.test('rows that end well give the whole file', async (t) => {
  async function* rows() { yield { a: 'x' }; yield { a: 'y' } }
  t.equal((await streamBytes(csvStream(rows(), [{ key: 'a', header: 'A' }]))).toString('utf8'), '\ufeffA\nx\ny\n')
  t.equal((await streamBytes(jsonStream(rows()))).toString('utf8'), '[\n{"a":"x"},\n{"a":"y"}\n]\n')
})
