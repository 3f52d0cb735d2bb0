// The dictionary form's mapping to /api/entity and back, and which field a server message is about.
import t from 'tap'
import { apiBody, emptyValues, formFieldOf, sameValues, valuesOfEntity } from '../../../islands/dictionary-editor/values.ts'
import { ENTITY_TYPES } from '../../../src/engine/entity-types.ts'

t.test('apiBody sends what the service reads: nulls for empty optional fields, options per line', async (t) => {
  const variable = { ...emptyValues('variable'), reservedName: 'Term', validOptions: '10 years\r\n\r\n 20 years \n', adviceSetId: '4', expression: 'left over' }
  t.same(apiBody(variable), {
    entityTypeId: ENTITY_TYPES.variable.id, reservedName: 'Term', dataType: null, validOptions: ['10 years', '20 years'], isClosedSet: false,
    displayFormat: null, defaultValue: null, expression: null, isConstant: false, personal: false, description: '', adviceSetId: 4,
  }, 'a variable sends no expression')
  t.equal(apiBody({ ...variable, personal: true }).personal, true, 'a variable sends its personal flag')
  const formula = apiBody({ ...emptyValues('formula'), reservedName: 'Tax', expression: ' {{Income}} * 0.2 ', defaultValue: '0' })
  t.match(formula, { entityTypeId: ENTITY_TYPES.formula.id, expression: '{{Income}} * 0.2', defaultValue: '0', adviceSetId: null })
  t.equal(apiBody({ ...emptyValues('formula'), reservedName: 'Tax', expression: '1', personal: true }).personal, false, 'a formula is never sent as personal (a variable switched to a formula drops the flag)')
})

t.test('valuesOfEntity reads an API entity back into the form, and apiBody round-trips it', async (t) => {
  const entity = {
    id: 3, entityTypeId: ENTITY_TYPES.formula.id, reservedName: 'Tax', dataType: 'number', validOptions: ['a', 'b'], isClosedSet: true,
    displayFormat: '0.00', defaultValue: 5, expression: '1 + 1', isConstant: true, description: 'd', adviceSetId: 9,
  }
  const values = valuesOfEntity(entity)
  t.same(values, {
    kind: 'formula', reservedName: 'Tax', dataType: 'number', validOptions: 'a\nb', isClosedSet: true, displayFormat: '0.00',
    defaultValue: '5', expression: '1 + 1', isConstant: true, personal: false, description: 'd', adviceSetId: '9',
  })
  t.equal(valuesOfEntity({ ...entity, entityTypeId: ENTITY_TYPES.variable.id, personal: true }).personal, true, 'the personal flag is read back')
  t.ok(sameValues(values, valuesOfEntity(entity)))
  t.notOk(sameValues(values, { ...values, isConstant: false }))
  t.equal(valuesOfEntity({ ...entity, defaultValue: ['x', 'y'] }).defaultValue, 'x, y')
})

t.test('formFieldOf finds the form field for a field the server refused', async (t) => {
  t.equal(formFieldOf('reservedName'), 'reservedName')
  t.equal(formFieldOf('entityTypeId'), 'kind')
  t.equal(formFieldOf('defaultValue'), 'defaultValue')
  t.equal(formFieldOf('ownerId'), null, 'only fields the form has')
})
