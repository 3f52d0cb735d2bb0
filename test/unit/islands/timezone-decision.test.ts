import t from 'tap'
import { DECLINED_TIMEZONE_KEY, TIMEZONE_NOTICE_MS, shouldOfferTimezone } from '../../../islands/timezone-prompt/decision.ts'

t.test('SPEC names and durations', async (t) => {
  t.equal(DECLINED_TIMEZONE_KEY, 'userCheckTimezone')
  t.equal(TIMEZONE_NOTICE_MS, 1500)
})

t.test('offers the browser timezone when it differs from the preference and was not declined', async (t) => {
  t.equal(shouldOfferTimezone({ preferred: 'UTC', browser: 'Asia/Tokyo', declined: null }), true)
  t.equal(shouldOfferTimezone({ preferred: null, browser: 'Asia/Tokyo', declined: null }), true, 'no preference yet')
  t.equal(shouldOfferTimezone({ preferred: null, browser: 'UTC', declined: null }), false, 'no preference shows UTC: a browser in UTC offers nothing new')
  t.equal(shouldOfferTimezone({ preferred: 'Asia/Tokyo', browser: 'Asia/Tokyo', declined: null }), false)
  t.equal(shouldOfferTimezone({ preferred: 'UTC', browser: 'Asia/Tokyo', declined: 'Asia/Tokyo' }), false)
  t.equal(shouldOfferTimezone({ preferred: 'UTC', browser: 'Europe/Paris', declined: 'Asia/Tokyo' }), true,
    'declining one timezone does not silence the offer for another')
  t.equal(shouldOfferTimezone({ preferred: 'UTC', browser: '', declined: null }), false)
})
