// Confirmation and alert dialogs (SPEC.md §4, §8): modal, centred, no animation; OK for alerts, Yes/No for
// confirmations. Built on <dialog>.showModal(), which makes the rest of the page inert and closes on Escape.
// Plain DOM rather than React, so any script can ask a question without mounting anything.

export interface DialogContent {
  heading?: string
  text: string
}

export interface ConfirmOptions extends DialogContent {
  yes?: string
  no?: string
}

export interface AlertOptions extends DialogContent {
  ok?: string
}

interface DialogButton {
  label: string
  value: string
  focus?: boolean
}

let dialogCount = 0

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

function openDialog(content: DialogContent, buttons: DialogButton[], cancelValue: string): Promise<string> {
  const id = `app-dialog-${++dialogCount}`
  const dialog = element('dialog', 'app-dialog')
  dialog.setAttribute('role', 'alertdialog')
  dialog.setAttribute('aria-describedby', `${id}-text`)
  if (content.heading) {
    const heading = element('h2', 'app-dialog__heading', content.heading)
    heading.id = `${id}-heading`
    dialog.setAttribute('aria-labelledby', heading.id)
    dialog.append(heading)
  }
  const text = element('p', 'app-dialog__text', content.text)
  text.id = `${id}-text`
  const form = element('form', 'app-dialog__buttons')
  form.method = 'dialog'
  for (const button of buttons) {
    const node = element('button', 'app-dialog__button', button.label)
    node.value = button.value
    node.autofocus = button.focus ?? false
    form.append(node)
  }
  dialog.append(text, form)

  const opener = document.activeElement
  document.body.append(dialog)
  dialog.showModal()
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove()
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus()
      resolve(dialog.returnValue || cancelValue)
    }, { once: true })
  })
}

/** Resolves true for Yes; No and Escape resolve false. The safe answer, No, has the focus. */
export async function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  const answer = await openDialog(options, [
    { label: options.yes ?? 'Yes', value: 'yes' },
    { label: options.no ?? 'No', value: 'no', focus: true },
  ], 'no')
  return answer === 'yes'
}

export async function alertDialog(options: AlertOptions): Promise<void> {
  await openDialog(options, [{ label: options.ok ?? 'OK', value: 'ok', focus: true }], 'ok')
}
