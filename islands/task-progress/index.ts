import { defineIsland } from '../shared/define-island.ts'
import { parseTaskProgressProps } from './props.ts'
import { TaskProgress } from './task-progress.tsx'

export const taskProgressIsland = defineIsland(TaskProgress, parseTaskProgressProps)
