// Loaded with `node --import` into a child server that stands for a machine whose clock is off by
// TEST_CLOCK_OFFSET_MS: every `new Date()` and `Date.now()` in that process reads the skewed time,
// as the whole machine's would. Tests only (test/helpers/slow-machine.ts).
const offset = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0);
if (offset) {
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = SkewedDate;
}
