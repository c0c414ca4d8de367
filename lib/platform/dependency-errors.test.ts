import test from 'ava';
import { ErrorReply } from 'redis';
import { isConnectionError, unavailableDependency } from './dependency-errors.js';

test('a Redis still loading its data after a restart is unavailable, not a failure', (t) => {
  const loading = new ErrorReply('LOADING Redis is loading the dataset in memory');
  t.true(isConnectionError(loading));
  t.is(unavailableDependency(loading), 'redis');
  t.is(unavailableDependency(new ErrorReply('BUSY Redis is busy running a script.')), 'redis');
});

test('a Redis refusing the request itself stays an error of ours', (t) => {
  const wrongType = new ErrorReply('WRONGTYPE Operation against a key holding the wrong kind of value');
  t.false(isConnectionError(wrongType));
  t.is(unavailableDependency(wrongType), undefined);
});
