// `instanceof` the SDK's error classes across two copies of the runtime in one program (as Node's ES module and
// CommonJS builds of the package are): two module instances of the source here (the packed builds are checked
// in test/package/package.test.ts). Each class is branded with its name (runtime/internal/brand.ts).
import { describe, expect, it, vi } from 'vitest';
import * as first from '../../runtime/index.ts';

vi.resetModules();
const second = await import('../../runtime/index.ts');

type ErrorClass = abstract new (...args: never) => Error;
const classNames = (Object.keys(first) as Array<keyof typeof first>)
  .filter(
    (name) => typeof first[name] === 'function' && (first[name] as { prototype?: unknown }).prototype instanceof Error,
  )
  .sort();
const classOf = (copy: typeof first, name: string): ErrorClass =>
  (copy as unknown as Record<string, ErrorClass>)[name]!;

/** One error of each class of `copy`, made as the SDK makes them. */
function oneOfEach(copy: typeof first): Error[] {
  return [
    new copy.SDKError('x'),
    new copy.APIError('x', { status: 418 }),
    new copy.BadRequestError('x', { status: 400 }),
    new copy.AuthenticationError('x', { status: 401 }),
    new copy.InsufficientCreditsError('x', { status: 402 }),
    new copy.PermissionDeniedError('x', { status: 403 }),
    new copy.NotFoundError('x', { status: 404 }),
    new copy.UnprocessableEntityError('x', { status: 422 }),
    new copy.InternalServerError('x', { status: 500 }),
    new copy.InvalidResponseError('x', { status: 200 }),
    new copy.RateLimitError('x', { status: 429 }),
    new copy.ConnectionError('x', { notSent: true }),
    new copy.TimeoutError('x'),
    new copy.AbortError('x'),
    new copy.RedirectError('x', { location: '/y' }),
    new copy.ResponseTooLargeError('x', { limitBytes: 1 }),
    new copy.OutcomeUnknownError('x', { reason: 'timeout' }),
    new copy.ValidationError('m', []),
    new copy.QueueRunTimeoutError('x', [], []),
    new copy.QueueRunAbortError('x', [], []),
    new copy.OutputExpiredError('x', { status: 410 }),
    new copy.FineTuneWaitTimeoutError('x', undefined),
    new copy.InputTooLargeError('x', { sizeBytes: 2, limitBytes: 1 }),
  ];
}

describe('error classes across two copies of the runtime', () => {
  it('the copies are distinct (the test would prove nothing otherwise)', () => {
    expect(second.APIError).not.toBe(first.APIError);
    expect(classNames).toEqual(
      expect.arrayContaining(['SDKError', 'APIError', 'ValidationError', 'QueueRunAbortError']),
    );
  });

  it('every exported error class is among those checked (a new class must be branded and added here)', () => {
    expect(
      oneOfEach(first)
        .map((error) => error.name)
        .sort(),
    ).toEqual(classNames);
  });

  it('an error of either copy is instanceof a class of the other exactly when it is of its own copy', () => {
    for (const [own, other] of [
      [first, second],
      [second, first],
    ] as const)
      for (const error of oneOfEach(own)) {
        const ofOwn = classNames.filter((name) => error instanceof classOf(own, name));
        expect(
          classNames.filter((name) => error instanceof classOf(other, name)),
          error.name,
        ).toEqual(ofOwn);
        expect(ofOwn, error.name).toContain(error.name);
      }
  });

  it('every error class the runtime exports has its own brand, its name (a subclass that forgot would pass as its parent)', () => {
    const brand = Symbol.for('oxen-inference-sdk.error');
    for (const name of classNames) {
      const prototype = classOf(first, name).prototype as object;
      expect(Object.getOwnPropertyDescriptor(prototype, brand)?.value, name).toBe(name);
    }
  });

  it("a user's subclass is checked by its own prototype; values that are not SDK errors are instances of nothing", () => {
    class MyError extends first.APIError {}
    expect(new MyError('x')).toBeInstanceOf(second.APIError);
    expect(new MyError('x')).not.toBeInstanceOf(second.NotFoundError);
    expect(new second.APIError('x')).not.toBeInstanceOf(MyError);
    expect(new first.APIError('x')).not.toBeInstanceOf(MyError);
    for (const value of [
      null,
      undefined,
      0,
      'APIError',
      {},
      Object.create(null),
      new Error('x'),
      new DOMException('x'),
    ])
      for (const name of classNames) {
        expect(value instanceof classOf(first, name)).toBe(false);
        expect(value instanceof classOf(second, name)).toBe(false);
      }
  });
});
