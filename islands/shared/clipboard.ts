// Copying a shown text (a key, a link) to the clipboard; when the browser refuses, the text is selected in its field
// so it can be copied by keyboard, and the notice says so.
import { notify } from './notify.ts'

export async function copyShownText(text: string, field: HTMLInputElement | null, opts: { label: string; noun: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    notify({ type: 'success', text: `${opts.label} copied to the clipboard.` })
  } catch {
    field?.select()
    notify({ type: 'warning', text: `The browser did not allow copying. The ${opts.noun} is selected: press Ctrl+C (⌘C on a Mac).` })
  }
}
