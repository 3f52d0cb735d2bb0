import t from 'tap'
import fc from 'fast-check'
import {
  changedValues, comparable, editorKeyAction, fieldError, isFieldChanged, isFormValid,
} from '../../../islands/inline-editor/fields.ts'
import type { FieldState } from '../../../islands/inline-editor/fields.ts'

const field = (over: Partial<FieldState>): FieldState =>
  ({ name: 'title', label: 'About', editor: 'input', value: 'a', original: 'a', ...over })

t.test('a field is changed when its value differs from its original', async (t) => {
  t.equal(isFieldChanged(field({ value: 'a' })), false)
  t.equal(isFieldChanged(field({ value: 'b' })), true)
  t.equal(isFieldChanged(field({ value: 'a ' })), true, 'other whitespace counts')
})

t.test('a value equal to the autosave value is not a change', async (t) => {
  t.equal(isFieldChanged(field({ original: 'a', autosave: 'draft', value: 'draft' })), false)
  t.equal(isFieldChanged(field({ original: 'a', autosave: 'draft', value: 'a' })), false)
  t.equal(isFieldChanged(field({ original: 'a', autosave: 'draft', value: 'other' })), true)
})

t.test('textareas ignore line breaks when comparing; inputs do not', async (t) => {
  t.equal(isFieldChanged(field({ editor: 'textarea', original: 'one\r\ntwo', value: 'one\ntwo' })), false)
  t.equal(isFieldChanged(field({ editor: 'textarea', original: 'one two', value: 'one two\n' })), false)
  t.equal(isFieldChanged(field({ editor: 'textarea', original: 'onetwo', value: 'one\rtwo' })), false)
  t.equal(isFieldChanged(field({ editor: 'textarea', original: 'one two', value: 'one  two' })), true)
  t.equal(isFieldChanged(field({ editor: 'input', original: 'one\r\ntwo', value: 'one\ntwo' })), true)
})

t.test('adding or removing line breaks anywhere in a textarea is never a change', async () => {
  fc.assert(fc.property(fc.string(), fc.array(fc.constantFrom('\n', '\r\n', '\r')), fc.nat(), (text, breaks, at) => {
    const position = text.length === 0 ? 0 : at % text.length
    const value = text.slice(0, position) + breaks.join('') + text.slice(position)
    return !isFieldChanged(field({ editor: 'textarea', original: text, value }))
      && comparable(value, 'textarea') === comparable(text, 'textarea')
  }))
})

t.test('required and maximum length make a field invalid with a message naming it', async (t) => {
  t.equal(fieldError(field({ required: true, value: '   ' })), 'About is required.')
  t.equal(fieldError(field({ maxLength: 3, value: 'abcd' })), 'About must be at most 3 characters.')
  t.equal(fieldError(field({ maxLength: 3, value: 'abc' })), null)
  t.equal(fieldError(field({ value: '' })), null, 'optional fields may be empty')
})

t.test('a form is valid only when no field is invalid', async (t) => {
  t.equal(isFormValid([field({}), field({ name: 'name', required: true, value: 'Ada' })]), true)
  t.equal(isFormValid([field({}), field({ name: 'name', required: true, value: '' })]), false)
  t.equal(isFormValid([]), true)
})

t.test('a save sends the changed fields only', async (t) => {
  t.same(changedValues([
    field({ name: 'name', value: 'Ada Lovelace', original: 'Ada' }),
    field({ name: 'title', editor: 'textarea', value: 'x\ny', original: 'x\r\ny' }),
  ]), { name: 'Ada Lovelace' })
})

t.test('Escape cancels; Enter saves, except Shift+Enter in a textarea', async (t) => {
  t.equal(editorKeyAction('Escape', false, 'input'), 'cancel')
  t.equal(editorKeyAction('Escape', false, 'textarea'), 'cancel')
  t.equal(editorKeyAction('Enter', false, 'input'), 'save')
  t.equal(editorKeyAction('Enter', true, 'input'), 'save')
  t.equal(editorKeyAction('Enter', false, 'textarea'), 'save')
  t.equal(editorKeyAction('Enter', true, 'textarea'), null)
  t.equal(editorKeyAction('a', false, 'input'), null)
})
