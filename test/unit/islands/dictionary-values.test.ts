// The dictionary form's mapping to /api/entity and back, and which field a server message is about.
import t from 'tap'
import { apiBody, emptyValues, fieldOfMessage, sameValues, valuesOfEntity } from '../../../islands/dictionary-editor/values.ts'
import { ENTITY_TYPES } from '../../../src/engine/entity-types.ts'

t.test('apiBody sends what the service reads: nulls for empty optional fields, options per line', async (t) => {
  const variable = { ...emptyValues('variable'), reservedName: 'Term', validOptions: '10 years\r\n\r\n 20 years \n', adviceSetId: '4', expression: 'left over' }
  t.same(apiBody(variable), {
    entityTypeId: ENTITY_TYPES.variable.id, reservedName: 'Term', dataType: null, validOptions: ['10 years', '20 years'], isClosedSet: false,
    displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', adviceSetId: 4,
  }, 'a variable sends no expression')
  const formula = apiBody({ ...emptyValues('formula'), reservedName: 'Tax', expression: ' {{Income}} * 0.2 ', defaultValue: '0' })
  t.match(formula, { entityTypeId: ENTITY_TYPES.formula.id, expression: '{{Income}} * 0.2', defaultValue: '0', adviceSetId: null })
})

t.test('valuesOfEntity reads an API entity back into the form, and apiBody round-trips it', async (t) => {
  const entity = {
    id: 3, entityTypeId: ENTITY_TYPES.formula.id, reservedName: 'Tax', dataType: 'number', validOptions: ['a', 'b'], isClosedSet: true,
    displayFormat: '0.00', defaultValue: 5, expression: '1 + 1', isConstant: true, description: 'd', adviceSetId: 9,
  }
  const values = valuesOfEntity(entity)
  t.same(values, {
    kind: 'formula', reservedName: 'Tax', dataType: 'number', validOptions: 'a\nb', isClosedSet: true, displayFormat: '0.00',
    defaultValue: '5', expression: '1 + 1', isConstant: true, description: 'd', adviceSetId: '9',
  })
  t.ok(sameValues(values, valuesOfEntity(entity)))
  t.notOk(sameValues(values, { ...values, isConstant: false }))
  t.equal(valuesOfEntity({ ...entity, defaultValue: ['x', 'y'] }).defaultValue, 'x, y')
})

t.test('fieldOfMessage finds the field a service message names', async (t) => {
  t.equal(fieldOfMessage('reservedName: a name is required.'), 'reservedName')
  t.equal(fieldOfMessage('entityTypeId: 12 (Variable) or 5 (Formula).'), 'kind')
  t.equal(fieldOfMessage('defaultValue: not a number'), 'defaultValue')
  t.equal(fieldOfMessage('Viewers cannot change this dictionary entry: ask an admin of your team to make you an author.'), null)
  t.equal(fieldOfMessage('ownerId: nope'), null, 'only fields the form has')
})
