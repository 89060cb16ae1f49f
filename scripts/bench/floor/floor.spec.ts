/** The framework's floor (scripts/bench/main.ts): two trivial tests, nothing of the suite. */
import { test } from '@playwright/test';

test('one', () => {});
test('two', () => {});
