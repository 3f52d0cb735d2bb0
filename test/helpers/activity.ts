// The audit rows one entity has, oldest first: what write tests count and compare.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../src/db/client.ts'
import { activity } from '../../src/db/schema/index.ts'

export async function activityRows(db: Db, entityType: string, id: number | string) {
  return db.select().from(activity).where(and(eq(activity.entityType, entityType), eq(activity.entityId, String(id)))).orderBy(activity.id)
}

/** The sentence an activity page shows for one item, as a person reads it (tags stripped, entities decoded). */
export function sentenceOf(li: string): string {
  const sentence = /<p class="activity-item__sentence">([\s\S]*?)<\/p>/.exec(li)?.[1] ?? ''
  return sentence.replace(/<[^>]+>/g, '').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').trim()
}

/** The newest log item (the <li>) of an activity page whose sentence contains `text`. */
export function activityItem(body: string, text: string | RegExp): string | undefined {
  return body.split('<li class="activity-item">').slice(1).find((li) => (typeof text === 'string' ? sentenceOf(li).includes(text) : text.test(sentenceOf(li))))
}

/** Every sentence of an activity page, newest first. */
export function activitySentences(body: string): string[] {
  return body.split('<li class="activity-item">').slice(1).map(sentenceOf)
}
