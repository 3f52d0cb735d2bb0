import t from 'tap'
import { AREAS, areaForPage } from '../../../islands/loader/pages.ts'

// The DESIGN.md page-name table, area by area (SPEC.md §2 "Areas loaded on demand").
const PAGES_BY_AREA = {
  dashboard: ['index'],
  auth: ['sign-in', 'sign-up', 'password-reset'],
  user: ['user-page'],
  admin: ['admin-export', 'support', 'keyword-map', 'tag', 'api-keys', 'api-keys-usage'],
  ruleset: ['rule-set-index', 'screener', 'bulk-editor', 'explore', 'rule-set-show', 'rule-set-form',
    'rule-set-activity', 'rule-set-embed', 'rule-set-delete'],
  publish: ['rule-set-publish-index', 'publish-assign', 'publish-version-show'],
  rule: ['rule-new', 'rule-show', 'rule-debug', 'rule-delete'],
  advicescenario: ['advice-scenario-index', 'generate-branches', 'tree-builder', 'generate-summary'],
  media: ['media-index'],
  entity: ['entity-page'],
  externalapi: ['external-api-form'],
} as const

t.test('every page of the page-name table loads its area', async (t) => {
  t.same(Object.keys(PAGES_BY_AREA).sort(), [...AREAS].sort(), 'the table covers every area')
  for (const [area, pages] of Object.entries(PAGES_BY_AREA)) {
    for (const page of pages) t.equal(areaForPage(page), area, page)
  }
})

t.test('unnamed pages use area-action names and load the area of their first segment', async (t) => {
  t.equal(areaForPage('admin-users'), 'admin')
  t.equal(areaForPage('admin-users-new'), 'admin')
  t.equal(areaForPage('user-team'), 'user')
  t.equal(areaForPage('media-show'), 'media')
})

t.test('rule-set pages are not mistaken for rule pages by their prefix', async (t) => {
  t.equal(areaForPage('rule-set-show'), 'ruleset')
  t.equal(areaForPage('rule-show'), 'rule')
})

t.test('unknown names have no area', async (t) => {
  t.equal(areaForPage('no-such-page'), undefined)
  t.equal(areaForPage(''), undefined)
  t.equal(areaForPage('toString'), undefined, 'inherited object keys are not page names')
  t.equal(areaForPage('constructor'), undefined)
})
