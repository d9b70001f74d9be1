import { z } from 'zod';

/**
 * Validation messages in the owner's words, not zod's ("Too small: expected string to have >=1
 * characters"). They read after the field's name in the API ("title: is required") and beside the
 * field in the UI. Schemas that say more with their own message keep it.
 */
/** 1000000 → "1,000,000": limits read as amounts, not as digits to count. */
const amount = (limit: number | bigint) => limit.toLocaleString('en-US');

z.config({
  customError: (issue) => {
    const noun = issue.origin === 'array' || issue.origin === 'set' ? ' items' : '';
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined || issue.input === null) return 'is required';
        if (issue.expected === 'number' || issue.expected === 'int') return 'must be a number';
        if (issue.expected === 'string') return 'must be text';
        return undefined;
      case 'too_small':
        if (issue.origin === 'string') {
          return Number(issue.minimum) <= 1 ? 'is required' : `must be at least ${issue.minimum} characters`;
        }
        if (issue.origin === 'number') {
          return issue.inclusive
            ? `must be at least ${amount(issue.minimum)}`
            : `must be more than ${amount(issue.minimum)}`;
        }
        return `must have at least ${issue.minimum}${noun}`;
      case 'too_big':
        if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
        if (issue.origin === 'number') {
          return issue.inclusive
            ? `must be at most ${amount(issue.maximum)}`
            : `must be less than ${amount(issue.maximum)}`;
        }
        return `must have at most ${issue.maximum}${noun}`;
      case 'invalid_format':
        if (issue.format === 'email') return 'must be an e-mail address such as name@example.com';
        if (issue.format === 'date') return 'must be a date (YYYY-MM-DD)';
        if (issue.format === 'datetime') return 'must be a date and time';
        return undefined;
      default:
        return undefined;
    }
  },
});
