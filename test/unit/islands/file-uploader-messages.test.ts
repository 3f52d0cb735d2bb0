// The uploader's words and rules (islands/file-uploader/messages.ts), spelled as SPEC §4, §5 and §8 spell them.
import t from 'tap'
import {
  admit, HIDE_BAR_AFTER_MS, OOPS, percentOf, PROCESSING, REMOVE_HEADING, REMOVE_YES, removeText, SAVED, tooBigText, tooManyText, UPLOAD_FAILED,
} from '../../../islands/file-uploader/messages.ts'

const MB10 = 10 * 1024 * 1024

t.test('the messages, exactly', async (t) => {
  t.equal(PROCESSING, 'Processing uploaded file...')
  t.equal(SAVED, 'Saved!')
  t.equal(OOPS, 'Oops!')
  t.equal(UPLOAD_FAILED, 'The upload failed, try again.')
  t.equal(REMOVE_HEADING, 'Whoa!')
  t.equal(REMOVE_YES, 'Yes, delete now')
  t.equal(HIDE_BAR_AFTER_MS, 2000)
  t.equal(tooBigText('scan.pdf', MB10), 'That file, scan.pdf, is too big. 10 MB is the max file size allowed.')
  t.equal(tooManyText(3), 'You can only attach 3 file(s).')
  t.equal(removeText('guide.pdf'), 'Are you sure you want to remove guide.pdf?')
})

t.test('percent: whole numbers, never past 100; above 99 is the processing state', async (t) => {
  t.equal(percentOf(0, 0), 0)
  t.equal(percentOf(1, 3), 33)
  t.equal(percentOf(995, 1000), 99)
  t.equal(percentOf(1000, 1000), 100)
  t.equal(percentOf(2000, 1000), 100)
})

t.test('admit: too big ones apart, then as many as there is room for', async (t) => {
  const file = (name: string, size: number) => ({ name, size })
  const chosen = [file('a', 10), file('big', MB10 + 1), file('b', MB10), file('c', 1)]
  t.same(admit(chosen, { maxBytes: MB10, maxFiles: null, present: 5 }), { accepted: [file('a', 10), file('b', MB10), file('c', 1)], tooBig: [file('big', MB10 + 1)], dropped: [] })
  t.same(admit(chosen, { maxBytes: MB10, maxFiles: 3, present: 1 }), { accepted: [file('a', 10), file('b', MB10)], tooBig: [file('big', MB10 + 1)], dropped: [file('c', 1)] })
  t.same(admit(chosen, { maxBytes: MB10, maxFiles: 3, present: 3 }).accepted, [], 'none at the maximum')
})
