import test from 'ava';
import {
  afterOpenTime,
  isOpen,
  isTimeZone,
  nextOpening,
  openingInWords,
  openTimeBetween,
  type OfficeHours,
} from './office-hours.js';

const weekdaysNineToFive = [
  { from: '09:00', to: '12:30' },
  { from: '13:30', to: '17:00' },
];
const berlin: OfficeHours = {
  timeZone: 'Europe/Berlin',
  weekly: {
    mon: weekdaysNineToFive,
    tue: weekdaysNineToFive,
    wed: weekdaysNineToFive,
    thu: weekdaysNineToFive,
    fri: weekdaysNineToFive,
  },
  holidays: ['2026-12-25'],
};
const at = (iso: string) => new Date(iso);

test('open within an interval of the day, in the team’s zone; closed at lunch, at night, at weekends and on holidays', (t) => {
  t.true(isOpen(berlin, at('2026-11-30T08:00:00Z')), 'Monday 9:00 in Berlin (UTC+1)');
  t.false(isOpen(berlin, at('2026-11-30T07:59:59Z')));
  t.false(isOpen(berlin, at('2026-11-30T11:45:00Z')), 'lunch');
  t.false(isOpen(berlin, at('2026-11-28T10:00:00Z')), 'Saturday');
  t.false(isOpen(berlin, at('2026-12-25T10:00:00Z')), 'a holiday');
  t.true(isOpen(berlin, at('2026-07-06T07:00:00Z')), 'Monday 9:00 in summer time (UTC+2)');
});

test('the next opening: Friday night is Monday morning, and a holiday is skipped', (t) => {
  t.deepEqual(nextOpening(berlin, at('2026-11-27T20:00:00Z')), at('2026-11-30T08:00:00Z'));
  t.deepEqual(nextOpening(berlin, at('2026-11-30T11:45:00Z')), at('2026-11-30T12:30:00Z'), 'after lunch');
  t.deepEqual(nextOpening(berlin, at('2026-11-30T10:00:00Z')), at('2026-11-30T10:00:00Z'), 'open now: now');
  t.deepEqual(nextOpening(berlin, at('2026-12-24T17:00:00Z')), at('2026-12-28T08:00:00Z'), 'Christmas Day and the weekend');
  t.is(nextOpening({ timeZone: 'UTC', weekly: {}, holidays: [] }, at('2026-11-30T10:00:00Z')), null);
});

test('business-hours deadlines count open time only, across lunch, nights and a change of clocks', (t) => {
  // Friday 16:00 Berlin + 2 open hours: 1 h on Friday, 1 h on Monday from 9:00.
  t.deepEqual(afterOpenTime(berlin, at('2026-11-27T15:00:00Z'), 2 * 3600_000), at('2026-11-30T09:00:00Z'));
  // Monday 12:00 + 1 h: 30 min before lunch, 30 min after.
  t.deepEqual(afterOpenTime(berlin, at('2026-11-30T11:00:00Z'), 3600_000), at('2026-11-30T13:00:00Z'));
  // Friday 24 October 2026 16:30 (summer) + 1 h: Monday 26 October 9:30 in winter time (UTC+1).
  t.deepEqual(afterOpenTime(berlin, at('2026-10-23T14:30:00Z'), 3600_000), at('2026-10-26T08:30:00Z'));
  t.is(openTimeBetween(berlin, at('2026-11-27T15:00:00Z'), at('2026-11-30T09:00:00Z')), 2 * 3600_000);
  t.is(openTimeBetween(berlin, at('2026-11-28T00:00:00Z'), at('2026-11-29T23:00:00Z')), 0, 'a weekend');
});

test('the opening in the customer’s words, and time zones checked', (t) => {
  t.regex(openingInWords(berlin, at('2026-11-30T08:00:00Z'), 'en'), /^Monday,? 9:00\s?AM GMT\+1$/);
  t.regex(openingInWords(berlin, at('2026-11-30T08:00:00Z'), 'de'), /^Montag,? 09:00 MEZ$/);
  t.true(isTimeZone('America/New_York'));
  t.false(isTimeZone('Mars/Olympus'));
});
