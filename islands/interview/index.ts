// Entry of the embed page (views/embed): mounts the interview without the app's loader, React or shared chunks,
// so a partner's frame loads one small script.
import { readIslandProps } from '../shared/read-props.ts'
import { reportFrameHeight } from './frame-height.ts'
import { Interview } from './interview.ts'
import { parseInterviewProps } from './props.ts'

function settle(root: HTMLElement, state: 'mounted' | 'failed'): void {
  root.setAttribute('data-island-state', state)
  root.closest('main')?.setAttribute('data-island-state', state)
}

export async function mountInterview(root: HTMLElement): Promise<void> {
  let props
  try {
    props = parseInterviewProps(readIslandProps(root, 'interview'))
  } catch (error) {
    console.error('Island interview failed to mount', error)
    settle(root, 'failed')
    return
  }
  reportFrameHeight(props.parentOrigins)
  await new Interview(root, props).start()
  settle(root, 'mounted')
}

const root = document.querySelector<HTMLElement>('[data-island="interview"]')
if (root) void mountInterview(root)
