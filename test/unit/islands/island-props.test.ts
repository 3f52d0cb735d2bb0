import t from 'tap'
import { parseInlineEditorProps } from '../../../islands/inline-editor/props.ts'
import { parseNotificationsProps } from '../../../islands/notifications/props.ts'
import { parseScenarioRunAllProps } from '../../../islands/scenario-run-all/props.ts'
import { parseTaskProgressProps } from '../../../islands/task-progress/props.ts'
import { parseTagPickerProps } from '../../../islands/tag-picker/props.ts'
import { InvalidPropsError } from '../../../islands/shared/define-island.ts'

t.test('inline-editor props as the profile page renders them', async (t) => {
  const props = parseInlineEditorProps({
    action: '/api/user/7', method: 'PATCH',
    fields: [
      { name: 'name', label: 'Name', value: 'Ada Admin', editor: 'input', required: true, maxLength: 120 },
      { name: 'title', label: 'About', value: '', editor: 'textarea', maxLength: 2000 },
    ],
  })
  t.equal(props.method, 'PATCH')
  t.match(props.fields[0], { name: 'name', label: 'Name', editor: 'input', required: true, maxLength: 120 })
  t.match(props.fields[1], { name: 'title', editor: 'textarea', required: false })
})

t.test('inline-editor props without action or with a field lacking a value are refused', async (t) => {
  t.throws(() => parseInlineEditorProps({ fields: [] }), InvalidPropsError)
  t.throws(() => parseInlineEditorProps({ action: '/x', fields: [{ name: 'name' }] }), InvalidPropsError)
})

t.test('notifications props: flash messages, unknown types shown as info', async (t) => {
  t.same(parseNotificationsProps({}), { flash: [] })
  t.match(parseNotificationsProps({ flash: [{ type: 'error', text: 'Nope' }, { type: 'odd', text: 'x' }] }).flash,
    [{ type: 'error', text: 'Nope' }, { type: 'info', text: 'x' }])
  t.throws(() => parseNotificationsProps({ flash: [{ type: 'info' }] }), InvalidPropsError)
})

t.test('scenario-run-all needs its set, base path and at least one source', async (t) => {
  t.same(parseScenarioRunAllProps({ adviceSetId: 4, base: '/adviceset/4/advicescenario', sources: [{ value: 'draft', label: 'Draft' }], total: 3 }),
    { adviceSetId: 4, base: '/adviceset/4/advicescenario', sources: [{ value: 'draft', label: 'Draft' }], total: 3, failingOnly: false })
  t.throws(() => parseScenarioRunAllProps({ adviceSetId: 4, base: '/x', sources: [] }), InvalidPropsError)
  t.throws(() => parseScenarioRunAllProps({ adviceSetId: 4, base: '/x', sources: [{ value: 'draft' }] }), InvalidPropsError)
  t.throws(() => parseScenarioRunAllProps({ base: '/x', sources: [{ value: 'draft', label: 'Draft' }] }), InvalidPropsError)
})

t.test('task-progress props as the gen-branches page renders them; a missing URL or unknown state is refused', async (t) => {
  const props = parseTaskProgressProps({
    statusUrl: '/api/adviceset/generate-branches/tasks/x', cancelUrl: '/api/adviceset/generate-branches/tasks/x/cancel',
    resultsUrl: '/adviceset/1/advicescenario/gen-branches?task=x&fragment=1', state: 'running', done: 3, total: 10, unit: 'paths',
  })
  t.match(props, { state: 'running', done: 3, total: 10, unit: 'paths' })
  t.match(parseTaskProgressProps({ statusUrl: 's', cancelUrl: 'c', resultsUrl: 'r', state: 'done' }), { done: 0, total: 0, unit: 'paths' })
  t.throws(() => parseTaskProgressProps({ statusUrl: 's', cancelUrl: 'c', state: 'running' }), InvalidPropsError)
  t.throws(() => parseTaskProgressProps({ statusUrl: 's', cancelUrl: 'c', resultsUrl: 'r', state: 'sleeping' }), InvalidPropsError)
})

t.test('tag-picker props as the set page renders them; ids not numbers are dropped from exclude', async (t) => {
  t.same(parseTagPickerProps({ inputId: 'tag-add-4', name: 'tagLabel', label: 'Tag to add', exclude: [3, 'x', 1.5, 9], value: 'Top', errorId: 'tag-add-4-error' }),
    { inputId: 'tag-add-4', name: 'tagLabel', label: 'Tag to add', exclude: [3, 9], value: 'Top', errorId: 'tag-add-4-error', required: true, placeholder: 'Type a tag’s name' })
  t.same(parseTagPickerProps({ inputId: 'a', name: 'b', required: false, placeholder: 'Any tag' }),
    { inputId: 'a', name: 'b', label: 'Tag', exclude: [], value: '', errorId: null, required: false, placeholder: 'Any tag' })
  t.throws(() => parseTagPickerProps({ name: 'tagLabel' }), InvalidPropsError)
})
