// Issue 7 acceptance: "a static partner page on another port with the embed script completes the interview in
// Chromium" — the frame follows its content's height, answers can be changed through the advice's chips, a page
// of an origin the key does not allow cannot frame it, and the author's page previews the working draft.
import t from 'tap'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FrameLocator, Locator } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../helpers/rules.ts'
import { createApiKey } from '../helpers/api-keys.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { insertEntity } from '../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../src/engine/index.ts'
import { and, eq } from 'drizzle-orm'
import { interviewEventCounts } from '../../src/db/schema/index.ts'
import { flushInterviewEvents } from '../../src/services/delivery/interview-events.ts'

/**
 * A partner's static site: every path is a page holding the script tag for the set named by `?set=` (`/private`
 * also sends no Referer).
 */
async function startPartner(scriptTag: (adviceSetId: string | null) => string): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://partner')
    const referrer = url.pathname === '/private' ? '<meta name="referrer" content="no-referrer">' : ''
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">${referrer}<title>Partner</title></head>
<body><h1>Partner Bank</h1><p>Answer a few questions.</p>${scriptTag(url.searchParams.get('set'))}<footer>Partner footer</footer></body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

async function texts(locator: Locator): Promise<string[]> {
  return (await locator.allTextContents()).map((text) => text.trim())
}

t.test('embedded interview', { skip: chromiumMissing }, async (t) => {
  const studio = await startServer()
  t.teardown(() => studio.close())
  const browser = await launchBrowser(t)
  const author = await studio.createUser({ role: 'author' })
  const ownerId = author.ownerId
  const set = await createAdviceSet(studio.db, { ownerId, name: 'Savings check' })
  await createVariable(studio.db, ownerId, 'Age', { dataType: 'number' })
  await insertEntity(studio.db, {
    ownerId, adviceSetId: set.id, entityTypeId: ENTITY_TYPES.variable.id, reservedName: 'Plan', dataType: 'select', validOptions: ['Basic', 'Plus'],
    isClosedSet: true, displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
  })
  await buildRule(studio.db, set.id, 'Main', [
    { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
    { type: 'advice', headline: 'You are {{Age}}', text: 'Starting early helps.' },
    { type: 'inputRequest', variable: 'Plan', question: 'Which plan do you have?' },
    { type: 'advice', headline: 'Save 10% on {{Plan}}', text: 'At {{Age}} on the {{Plan}} plan, save a tenth of your income.\n\n[More on {{Plan}}](https://partner.example/plans)' },
  ])
  await publishVersion(studio.db, { adviceSetId: set.id })

  // The key allows http://localhost:PORT; the same partner server reached as 127.0.0.1 is another origin.
  let key = ''
  const partnerPage = await startPartner((setId) => `<script src="${studio.url}/static/embed.js" data-advice-set="${setId ?? set.id}" data-key="${key}"></script>`)
  t.teardown(() => new Promise<void>((resolve) => partnerPage.server.close(() => resolve())))
  const allowedOrigin = `http://localhost:${partnerPage.port}`
  key = (await createApiKey(studio.db, { ownerId, allowedOrigins: [allowedOrigin] })).secret

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())

  t.test('a partner page completes the interview, and the frame follows its content', async (t) => {
    const page = await context.newPage()
    const consoleLog = recordConsole(page)
    const reported: Array<{ event: string }> = []
    page.on('request', (request) => {
      if (request.url() === `${studio.url}/api/advice/${set.id}/events`) reported.push(...(request.postDataJSON() as { events: Array<{ event: string }> }).events)
    })
    await page.goto(`http://localhost:${partnerPage.port}/`)
    const iframe = page.locator('iframe.advice-studio-embed')
    t.equal(await iframe.getAttribute('title'), 'Advice interview')
    const frame: FrameLocator = page.frameLocator('iframe.advice-studio-embed')
    await frame.locator('main[data-island-state="mounted"]').waitFor()
    const embedFrame = page.frames().find((f) => f.url().startsWith(`${studio.url}/adviceset/${set.id}/embed`))!
    t.ok(embedFrame, 'the frame shows the embed page')

    async function frameFollowsContent(label: string): Promise<number> {
      await page.waitForFunction(async () => {
        const element = document.querySelector<HTMLIFrameElement>('iframe.advice-studio-embed')!
        return element.style.height !== '320px' && element.getBoundingClientRect().height > 0
      })
      const content = await embedFrame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height))
      await page.waitForFunction((height) => document.querySelector<HTMLIFrameElement>('iframe.advice-studio-embed')!.style.height === `${height}px`, content)
      const shown = await iframe.evaluate((el) => el.getBoundingClientRect().height)
      t.equal(Math.round(shown), content, `${label}: the frame is as tall as its content (${content}px)`)
      t.equal(await embedFrame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight), true, `${label}: nothing to scroll inside`)
      return content
    }

    t.equal((await frame.locator('.question-text').textContent())?.trim(), 'How old are you?')
    const age = frame.getByRole('textbox', { name: 'How old are you?' })
    t.equal(await age.getAttribute('placeholder'), 'e.g. 42 or 3.5', 'the Number placeholder')
    t.match(await frame.locator('.question-hint').textContent(), /^A number\./, 'and its description')
    const firstHeight = await frameFollowsContent('first question')
    t.same(await axeViolationsInMain(embedFrame), [], 'axe: the first question')

    await age.fill('forty')
    await frame.getByRole('button', { name: 'Next' }).click()
    const error = frame.getByRole('alert')
    await error.waitFor()
    t.match(await error.textContent(), /number/i, 'a typo is announced')
    t.equal(await age.getAttribute('aria-invalid'), 'true')
    t.match(await age.getAttribute('aria-describedby'), /-error/, 'the error describes the field')

    await age.fill('42')
    await age.press('Enter')
    const plan = frame.getByRole('combobox', { name: 'Which plan do you have?' })
    await plan.waitFor()
    t.equal(await embedFrame.evaluate(() => document.activeElement?.tagName), 'SELECT', 'focus moves to the new question')
    t.same(await texts(frame.locator('.advice-headline')), ['You are 42'], 'advice shows as it becomes available')
    t.equal(await frame.getByRole('status').textContent(), 'Question: Which plan do you have?', 'the new question is announced')

    await plan.selectOption('Plus')
    await frame.getByRole('button', { name: 'Next' }).click()
    await frame.locator('.interview-done').waitFor()
    t.same(await texts(frame.locator('.advice-headline')), ['You are 42', 'Save 10% on Plus'], 'the final advice')
    t.equal((await frame.locator('.advice-text').nth(1).locator('p').first().textContent())?.trim(), 'At 42 on the Plus plan, save a tenth of your income.')
    t.equal(await frame.getByRole('link', { name: 'More on Plus' }).getAttribute('href'), 'https://partner.example/plans', 'a chip inside the author\'s own link leaves the link alone')
    const finalHeight = await frameFollowsContent('final advice')
    t.ok(finalHeight > firstHeight, `the frame grew with the advice (${firstHeight}px → ${finalHeight}px)`)
    t.same(await axeViolationsInMain(embedFrame), [], 'axe: the completed interview')

    // A chip in the advice links back to its question: clicking it asks again, with the answer given.
    await frame.locator('.advice-text').nth(1).getByRole('link', { name: /^42: change your answer/ }).click()
    const ageAgain = frame.getByRole('textbox', { name: 'How old are you?' })
    await ageAgain.waitFor()
    t.equal(await ageAgain.inputValue(), '42', 'the answer given is there to change')
    t.equal(await embedFrame.evaluate(() => document.activeElement?.getAttribute('aria-labelledby')), await ageAgain.getAttribute('aria-labelledby'), 'focus is on it')
    await ageAgain.fill('30')
    await ageAgain.press('Enter')
    await frame.getByText('At 30 on the Plus plan, save a tenth of your income.').waitFor()
    t.same(await texts(frame.locator('.advice-headline')), ['You are 30', 'Save 10% on Plus'], 'the later answer is kept')

    // The answers list changes an answer too; keeping it restores the advice.
    await frame.getByRole('button', { name: /^Change your answer to “Which plan do you have\?”: Plus/ }).click()
    await frame.getByRole('button', { name: 'Keep my answer' }).click()
    await frame.locator('.interview-done').waitFor()
    t.same(await texts(frame.locator('.advice-headline')), ['You are 30', 'Save 10% on Plus'])
    t.same(consoleLog.messages.filter((m) => m.type === 'error'), [], 'no console errors')

    // Analytics: one interview, started once and completed once however often its answers changed afterwards; its
    // calls to the Advice API are its steps, not a partner's runs.
    const answered = () => reported.filter((e) => e.event === 'question_answered').length
    if (answered() < 4) await Promise.all([page.waitForRequest((r) => r.url().endsWith(`/api/advice/${set.id}/events`)), page.goto('about:blank')])
    const count = (event: string) => reported.filter((e) => e.event === event).length
    t.same([count('started'), count('advice_reached'), answered(), count('abandoned')], [1, 1, 4, 0], 'started, completed, answered, abandoned')
    await flushInterviewEvents(studio.db)
    const runs = await studio.db.select().from(interviewEventCounts).where(and(eq(interviewEventCounts.adviceSetId, set.id), eq(interviewEventCounts.event, 'api_run')))
    t.same(runs, [], 'no partner runs counted')
    await page.close()
  })

  t.test('every input type asks with its own control, placeholder and description', async (t) => {
    const kinds = await createAdviceSet(studio.db, { ownerId, name: 'All kinds' })
    const variable = (name: string, dataType: string, validOptions: string[] = []) => insertEntity(studio.db, {
      ownerId, adviceSetId: kinds.id, entityTypeId: ENTITY_TYPES.variable.id, reservedName: name, dataType, validOptions,
      isClosedSet: validOptions.length > 0, displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
    })
    await variable('Rate', 'percent')
    await variable('Start', 'date')
    await variable('Note', 'freetext')
    await variable('Student', 'boolean')
    await variable('Colour', 'radio', ['Red', 'Green'])
    await variable('Pets', 'array', ['Cat', 'Dog', 'Fish'])
    await variable('Tags', 'array')
    await buildRule(studio.db, kinds.id, 'Everything', [
      { type: 'inputRequest', variable: 'Rate', question: 'Your rate?' },
      { type: 'inputRequest', variable: 'Start', question: 'When do you start?' },
      { type: 'inputRequest', variable: 'Note', question: 'Anything else?' },
      { type: 'inputRequest', variable: 'Student', question: 'Are you a student?' },
      { type: 'inputRequest', variable: 'Colour', question: 'Favourite colour?' },
      { type: 'inputRequest', variable: 'Pets', question: 'Which pets?' },
      { type: 'inputRequest', variable: 'Tags', question: 'Any tags?' },
      { type: 'advice', headline: 'Summary', text: '{{Rate}} from {{Start}}; {{Note}}; student {{Student}}; {{Colour}}; {{Pets}}; {{Tags}}' },
    ])
    await publishVersion(studio.db, { adviceSetId: kinds.id })

    const page = await context.newPage()
    await page.goto(`http://localhost:${partnerPage.port}/?set=${kinds.id}`)
    const frame = page.frameLocator('iframe.advice-studio-embed')
    await frame.locator('main[data-island-state="mounted"]').waitFor()
    const next = () => frame.getByRole('button', { name: 'Next' }).click()
    const hint = async () => (await frame.locator('.question-hint').textContent())?.trim()

    const rate = frame.getByRole('textbox', { name: 'Your rate?' })
    t.equal(await rate.getAttribute('placeholder'), 'e.g. 4.2', 'Percent asks for e.g. 4.2')
    t.equal(await hint(), 'A percentage: type 4.2 for 4.2%.')
    await rate.fill('4.2')
    await next()
    const start = frame.getByLabel('When do you start?')
    await start.waitFor()
    t.equal(await start.getAttribute('type'), 'date', 'Date: a date field')
    await start.fill('2024-03-31')
    await next()
    const note = frame.getByRole('textbox', { name: 'Anything else?' })
    t.equal(await note.getAttribute('placeholder'), 'Type your answer', 'Freetext')
    await note.fill('Saving for a bike')
    await next()
    const student = frame.getByRole('group', { name: 'Are you a student?' })
    await student.waitFor()
    t.same(await texts(student.locator('label')), ['Yes', 'No'], 'True/False: yes or no')
    await next()
    t.equal((await frame.getByRole('alert').textContent())?.trim(), 'Please answer this question.', 'an empty answer is announced')
    await student.getByRole('radio', { name: 'No' }).check()
    await next()
    const colour = frame.getByRole('group', { name: 'Favourite colour?' })
    await colour.waitFor()
    t.same(await texts(colour.locator('label')), ['Red', 'Green'], 'Radio: the options as radio buttons')
    await colour.getByRole('radio', { name: 'Green' }).check()
    await next()
    const pets = frame.getByRole('group', { name: 'Which pets?' })
    await pets.waitFor()
    t.equal(await pets.getByRole('checkbox').count(), 3, 'Array with options: one checkbox each')
    await pets.getByRole('checkbox', { name: 'Cat' }).check()
    await pets.getByRole('checkbox', { name: 'Fish' }).check()
    await next()
    const tags = frame.getByRole('textbox', { name: 'Any tags?' })
    t.equal(await tags.getAttribute('placeholder'), 'e.g. apples, pears, plums', 'Array without options: a comma list')
    await tags.fill('blue, green')
    await next()
    await frame.locator('.interview-done').waitFor()
    t.same(await texts(frame.locator('.interview-answers li .answer-change')), ['4.2%', 'Mar 31, 2024', 'Saving for a bike', 'No', 'Green', 'Cat, Fish', 'blue, green'], 'every answer listed as given')
    t.same(await axeViolationsInMain(page.frames().find((f) => f.url().includes(`/adviceset/${kinds.id}/embed`))!), [], 'axe')
    await page.close()
  })

  t.test('a page of an origin the key does not allow cannot frame the interview', async (t) => {
    const page = await context.newPage()
    const consoleLog = recordConsole(page)
    // No Referer: only the browser's frame-ancestors check stands between the page and the interview.
    const refused = consoleLog.waitFor('error', 'frame-ancestors')
    const response = page.waitForResponse((r) => r.url().startsWith(`${studio.url}/adviceset/${set.id}/embed`))
    await page.goto(`http://127.0.0.1:${partnerPage.port}/private`)
    t.equal((await response).status(), 200, 'the server could not tell the origin')
    t.match((await refused).text(), allowedOrigin, 'the browser refuses to frame it')
    t.equal(page.frames().some((f) => f.url().startsWith(studio.url) && f.url().includes('/embed')), false, 'no frame shows the embed page')

    const checked = page.waitForResponse((r) => r.url().startsWith(`${studio.url}/adviceset/${set.id}/embed`))
    await page.goto(`http://127.0.0.1:${partnerPage.port}/`)
    t.equal((await checked).status(), 403, 'with a Referer, the server refuses the other origin itself')
    await page.close()
  })

  t.test('the author\'s embed page previews the working draft', async (t) => {
    const page = await context.newPage()
    await signInByApi(page, studio.url, author)
    await page.goto(`${studio.url}/adviceset/${set.id}/embed`)
    t.equal(await islandsSettled(page), 'mounted')
    t.match(await page.getByLabel('Snippet to copy').inputValue(), `data-advice-set="${set.id}" data-key="YOUR_API_KEY"`)
    t.same(await axeViolationsInMain(page.mainFrame()), [], 'axe: the author\'s page')
    const preview = page.frameLocator('iframe.advice-studio-embed')
    await preview.locator('main[data-island-state="mounted"]').waitFor()
    t.equal(await preview.locator('.embed-note').textContent(), 'Preview of the working draft: partners see the published version.')
    await preview.getByRole('textbox', { name: 'How old are you?' }).fill('50')
    await preview.getByRole('button', { name: 'Next' }).click()
    await preview.getByRole('combobox', { name: 'Which plan do you have?' }).waitFor()
    t.same(await texts(preview.locator('.advice-headline')), ['You are 50'], 'the draft answers through the debugger run')
    await page.close()
  })
})

