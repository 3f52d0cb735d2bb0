// What a file is, from its first bytes (services/files/kinds.ts): never from its name, except to choose between plain
// text formats once the bytes are known to be text.
import t from 'tap'
import sharp from 'sharp'
import { fileKindOf, isActiveContent, isRasterImage } from '../../../src/services/files/kinds.ts'

t.test('binary formats by their signature, whatever the name says', async (t) => {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).png().toBuffer()
  t.same(await fileKindOf(png, 'notes.txt'), { contentType: 'image/png', fileExt: 'png', format: 'image' })
  const jpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).jpeg().toBuffer()
  t.same(await fileKindOf(jpeg, 'x'), { contentType: 'image/jpeg', fileExt: 'jpg', format: 'image' })
  t.same(await fileKindOf(Buffer.from('%PDF-1.7\n%âãÏÓ\n', 'latin1'), 'a.html'), { contentType: 'application/pdf', fileExt: 'pdf', format: 'file' })
  t.same(await fileKindOf(Buffer.from([0, 1, 2, 3, 255, 254, 0, 9]), 'a.png'), { contentType: 'application/octet-stream', fileExt: 'bin', format: 'file' })
})

t.test('HTML and SVG by their markup, so a renamed page is still a page', async (t) => {
  for (const html of ['<!DOCTYPE html><html><body>x', '  \n<html lang="en">', '<script>alert(1)</script>', '\uFEFF<!-- c --><div>chart</div>', 'Title\n<body onload="x()">']) {
    t.equal((await fileKindOf(Buffer.from(html), 'image.png')).contentType, 'text/html', JSON.stringify(html))
  }
  t.same(await fileKindOf(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'logo.png'), { contentType: 'image/svg+xml', fileExt: 'svg', format: 'image' })
  t.same(await fileKindOf(Buffer.from('<svg viewBox="0 0 1 1"></svg>'), 'x'), { contentType: 'image/svg+xml', fileExt: 'svg', format: 'image' })
})

t.test('other text takes a plain-text type its name asks for, or text/plain', async (t) => {
  t.same(await fileKindOf(Buffer.from('age,income\n40,60000\n'), 'table.csv'), { contentType: 'text/csv', fileExt: 'csv', format: 'file' })
  t.same(await fileKindOf(Buffer.from('{"a":1}'), 'data.json'), { contentType: 'application/json', fileExt: 'json', format: 'file' })
  t.same(await fileKindOf(Buffer.from('plain words'), 'run.exe'), { contentType: 'text/plain', fileExt: 'txt', format: 'file' })
  t.same(await fileKindOf(Buffer.from('<?xml version="1.0"?><note><to>x</to></note>'), 'n.xml'), { contentType: 'application/xml', fileExt: 'xml', format: 'file' })
  t.same(await fileKindOf(Buffer.from('<note>x</note>'), 'n.xml'), { contentType: 'text/plain', fileExt: 'txt', format: 'file' }, 'markup a browser would not run is text')
})

t.test('what is shown inline and what never runs in the app', async (t) => {
  t.ok(isRasterImage('image/png'))
  t.notOk(isRasterImage('image/svg+xml'))
  for (const type of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'application/xml']) t.ok(isActiveContent(type), type)
  t.notOk(isActiveContent('application/pdf'))
})
