import t from 'tap'
import {
  ADVICE_SYSTEM_NODE_ID,
  API_CONTEXTS,
  ENTITY_TYPES,
  ENTITY_TYPE_LIST,
  NODE_TYPES,
  RESERVED_VARIABLE_NAMES,
  TAG_LABEL_NEEDS_WORK,
  TAG_SLUGS,
  TAG_TYPES,
  entityTypeById,
} from '../../../src/engine/entity-types.ts'
import { NAME_PATTERN } from '../../../src/engine/expr/index.ts'

t.test('the thirteen SPEC §3 entity types, with stable unique ids and every field', async (t) => {
  t.equal(ENTITY_TYPE_LIST.length, 13)
  t.equal(new Set(ENTITY_TYPE_LIST.map((type) => type.id)).size, 13)
  t.same(
    ENTITY_TYPE_LIST.map((type) => type.displayName),
    ['Advice', 'API Call', 'Condition', 'Condition (Always)', 'Formula', 'Input Request', 'Rule Call', 'Rule Exit', 'Advice Set', 'Advice Category', 'Rule', 'Variable', 'Variable Assignment'],
  )
  t.equal(ENTITY_TYPES.adviceSet.name, 'RULESET')
  t.equal(ENTITY_TYPES.rule.name, 'TOPIC')
  for (const type of ENTITY_TYPE_LIST) {
    t.ok(type.plural && type.sentence && type.iconClass, `${type.displayName} has plural, sentence and icon`)
    t.equal(entityTypeById(type.id), type)
  }
  t.equal(entityTypeById(999), undefined)
  t.ok(NODE_TYPES.every((key) => ENTITY_TYPES[key] !== undefined))
})

t.test('tags, reserved names, API contexts and the system node id', async (t) => {
  t.same(Object.values(TAG_SLUGS), ['assumption', 'collapse', 'example', 'follow-on'])
  t.equal(TAG_LABEL_NEEDS_WORK, 'Needs Work')
  t.same(Object.values(TAG_TYPES), ['advice_group', 'advice_type'])
  t.same([...RESERVED_VARIABLE_NAMES], ['Context', 'Example_Number', 'Headline_Custom', 'ApiKey_Owner_Id', 'Data_Api_Sources'])
  for (const name of RESERVED_VARIABLE_NAMES) t.match(name, NAME_PATTERN, `${name} is a valid variable name`)
  t.same([...API_CONTEXTS], ['examples', 'genbranches', 'genbranchesTree', 'intro', 'run'])
  t.equal(ADVICE_SYSTEM_NODE_ID, -32768)
})
