// One answer control of the debug form, as views/rule/_debug-field.eta renders it without JavaScript.
import type { DebugField as Field } from '../../src/services/authoring/rule-debug-page.ts'

const YES_NO = [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }]

export function DebugField({ field, value }: { field: Field; value: string }) {
  const id = `debug-input-${field.variable}`
  const name = `input.${field.variable}`
  const choices = field.control === 'boolean' ? YES_NO : field.options.map((o) => ({ value: o, label: o }))
  return (
    <div className="field debug-field" data-variable={field.variable} data-control={field.control}>
      {field.control === 'boolean' || field.control === 'radio' ? (
        <fieldset>
          <legend>{field.label}</legend>
          {choices.map((c, i) => (
            <label key={c.value}>
              <input type="radio" name={name} value={c.value} id={i === 0 ? id : undefined} defaultChecked={value === c.value} /> {c.label}
            </label>
          ))}
          <label><input type="radio" name={name} value="" defaultChecked={value === ''} /> No answer</label>
        </fieldset>
      ) : (
        <>
          <label htmlFor={id}>{field.label}</label>
          {field.control === 'lines' ? (
            <textarea id={id} name={name} rows={3} placeholder={field.placeholder} defaultValue={value} />
          ) : field.control === 'select' ? (
            <select id={id} name={name} defaultValue={value}>
              <option value="">No answer</option>
              {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
            </select>
          ) : field.control === 'number' ? (
            // Typed as text, as in the embed: a number box would refuse "60,000" and "$60,000" before the engine's parser sees them.
            field.dataType === 'percent' ? (
              <span className="debug-percent">
                <input id={id} name={name} type="text" inputMode="decimal" autoComplete="off" defaultValue={value} placeholder={field.placeholder} />
                <span className="debug-percent-sign" aria-hidden="true">%</span>
              </span>
            ) : (
              <input id={id} name={name} type="text" inputMode="decimal" autoComplete="off" defaultValue={value} placeholder={field.placeholder} />
            )
          ) : (
            <input id={id} name={name} type={field.control} defaultValue={value} placeholder={field.placeholder} />
          )}
        </>
      )}
      <p className="hint"><code>{`{{${field.variable}}}`}</code> · {field.description}</p>
    </div>
  )
}
