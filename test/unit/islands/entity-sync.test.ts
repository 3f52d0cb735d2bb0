// The reserved-name change's rules for one place on a page (SPEC.md §4, §5): which formula boxes refresh, how
// references are rewritten, and when the type notice shows.
import t from 'tap'
import { parseEntityChange, refreshedBoxValue, renameReferences, typeChangeNotice } from '../../../islands/entity-sync/change.ts'
import type { EntityChange } from '../../../islands/entity-sync/change.ts'
import { ENTITY_TYPES } from '../../../src/engine/entity-types.ts'
import { belongsToSet, parseCreatedEntity, parseSyncMessage } from '../../../islands/entity-sync/events.ts'
import { withCreatedEntity, withoutEntry } from '../../../islands/rule-tree/dictionary-sync.ts'

const VARIABLE = ENTITY_TYPES.variable.id
const FORMULA = ENTITY_TYPES.formula.id
const rename: EntityChange = { id: 7, reservedName: 'Monthly_Income', previousName: 'Income', entityTypeId: VARIABLE, previousEntityTypeId: VARIABLE, typeDisplayName: 'Variable' }
const toFormula: EntityChange = { ...rename, reservedName: 'Income', entityTypeId: FORMULA, typeDisplayName: 'Formula' }

t.test('parseEntityChange accepts the contract detail and nothing else', async (t) => {
  t.same(parseEntityChange({ ...rename, extra: 1 }), rename)
  t.equal(parseEntityChange(null), null)
  t.equal(parseEntityChange({ ...rename, id: '7' }), null, 'ids are numbers')
  t.equal(parseEntityChange({ ...rename, previousName: undefined }), null)
})

t.test('renameReferences rewrites the tags of the entry only', async (t) => {
  t.equal(renameReferences('{{Income}} > 5 && {{ Income }} < {{Income2}} and [[Income]]', rename),
    '{{Monthly_Income}} > 5 && {{Monthly_Income}} < {{Income2}} and [[Income]]', 'variable tags, spaces inside allowed; other names and kinds kept')
  t.equal(renameReferences('{{Income}} * 2', toFormula), '[[Income]] * 2', 'a type change switches the brackets')
  t.equal(renameReferences('[[Tax]] + 1', { ...rename, previousName: 'Tax', reservedName: 'Levy', entityTypeId: FORMULA, previousEntityTypeId: FORMULA }), '[[Levy]] + 1')
  t.equal(renameReferences('{{Ok?}} and {{Ok}}', { ...rename, previousName: 'Ok?', reservedName: 'Fine?' }), '{{Fine?}} and {{Ok}}', 'names with ? are matched literally')
  t.equal(renameReferences('Income alone', rename), 'Income alone', 'bare words are not tags')
})

t.test('refreshedBoxValue refreshes only unmodified boxes that refer to the entry', async (t) => {
  const box = { value: '{{Income}} * 0.2', original: '{{Income}} * 0.2', editor: 'textarea' as const }
  t.equal(refreshedBoxValue(box, rename), '{{Monthly_Income}} * 0.2', 'unmodified: refreshed')
  t.equal(refreshedBoxValue({ ...box, value: '{{Income}} * 0.3' }, rename), null, 'modified: left alone')
  t.equal(refreshedBoxValue({ ...box, value: '{{Income}} * 0.3', autosave: '{{Income}} * 0.3' }, rename), '{{Monthly_Income}} * 0.3', 'equal to its autosave value counts as unmodified')
  const multiline = { value: '{{Income}}\n* 0.2', original: '{{Income}}\r\n* 0.2', editor: 'textarea' as const }
  t.equal(refreshedBoxValue(multiline, rename), '{{Monthly_Income}}\n* 0.2', 'line breaks alone are no change in a textarea')
  t.equal(refreshedBoxValue({ ...multiline, editor: 'input' }, rename), null, 'but they are in an input')
  t.equal(refreshedBoxValue({ ...box, value: '[[Tax]]', original: '[[Tax]]' }, rename), null, 'nothing to rewrite')
})

t.test('typeChangeNotice names the new type only when the type changed', async (t) => {
  t.equal(typeChangeNotice(rename), null)
  t.equal(typeChangeNotice(toFormula), 'This item was changed to a Formula entity.')
})

t.test('made and deleted entries: the channel message, and which set dictionaries hold a made entry', async (t) => {
  const made = { id: 9, reservedName: 'Pot', entityTypeId: VARIABLE, dataType: 'number', expression: null, ownerId: 'o1', adviceSetId: null }
  t.same(parseSyncMessage({ event: 'entity:created', detail: { ...made, extra: true } }), { event: 'entity:created', detail: made })
  t.same(parseSyncMessage({ event: 'entity:deleted', detail: { id: 9 } }), { event: 'entity:deleted', detail: { id: 9 } })
  t.same(parseSyncMessage(rename), { event: 'entity:changed', detail: rename }, 'a bare rename (a tab of the previous bundle)')
  t.equal(parseSyncMessage({ event: 'entity:created', detail: { ...made, id: '9' } }), null)
  t.equal(parseSyncMessage({ event: 'entity:gone', detail: { id: 9 } }), null, 'unknown events are dropped')
  t.equal(parseCreatedEntity({ ...made, adviceSetId: 0 }), null)

  const set = { id: 3, ownerId: 'o1' }
  t.ok(belongsToSet(made, set), 'an owner-wide entry')
  t.ok(belongsToSet({ ...made, adviceSetId: 3 }, set), 'an entry of this set')
  t.notOk(belongsToSet({ ...made, adviceSetId: 4 }, set), 'an entry of another set')
  t.notOk(belongsToSet({ ...made, ownerId: 'o2' }, set), 'another owner’s entry')

  const age = { id: 1, name: 'Age', kind: 'variable' as const, dataType: null, expression: null }
  t.same(withCreatedEntity([age], made, set), [age, { id: 9, name: 'Pot', kind: 'variable', dataType: 'number', expression: null }])
  t.same(withCreatedEntity([age], { ...made, entityTypeId: FORMULA, expression: '{{Age}} * 2' }, set)[1], { id: 9, name: 'Pot', kind: 'formula', dataType: 'number', expression: '{{Age}} * 2' })
  const once = withCreatedEntity([age], made, set)
  t.equal(withCreatedEntity(once, made, set), once, 'added once')
  t.same(withoutEntry(once, 9), [age])
})
