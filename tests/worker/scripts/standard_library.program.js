// The standard library the engine predates (src/worker/engine/scripts/standard_library.js), used
// the way a program uses it: one check per behaviour, taken from the specification's semantics
// and examples. Returns the list of failures; empty when every check passes. It runs in the
// worker with the library installed and, in tests/worker/scripts/standard_library_test.mjs, in a
// Node.js realm with the library installed in place of Node's natives.
async () => {
  const failures = [];

  // ---- Helpers ----------------------------------------------------------------------------------
  const show = (value) => {
    if (value === undefined) return 'undefined';
    if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
    if (typeof value === 'bigint') return value + 'n';
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'symbol' || typeof value === 'function') return String(value);
    if (value === null || typeof value !== 'object') return String(value);
    if (Array.isArray(value)) {
      const parts = [];
      for (let i = 0; i < value.length; i++) parts.push(i in value ? show(value[i]) : '<hole>');
      return '[' + parts.join(', ') + ']';
    }
    if (ArrayBuffer.isView(value)) {
      return Object.prototype.toString.call(value).slice(8, -1) + '[' + Array.from(value, show).join(', ') + ']';
    }
    if (value instanceof Map) return 'Map{' + Array.from(value, ([k, v]) => show(k) + ' => ' + show(v)).join(', ') + '}';
    if (value instanceof Set) return 'Set{' + Array.from(value, show).join(', ') + '}';
    return '{' + Reflect.ownKeys(value).map((k) => String(k) + ': ' + show(value[k])).join(', ') + '}';
  };
  const same = (label, actual, expected) => {
    const a = show(actual);
    const e = show(expected);
    if (a !== e) failures.push(label + ': got ' + a + ', expected ' + e);
  };
  const ok = (label, condition) => {
    if (!condition) failures.push(label);
  };
  const throws = (label, ErrorType, fn) => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof ErrorType)) failures.push(label + ': threw ' + error + ', expected ' + ErrorType.name);
      return;
    }
    failures.push(label + ': did not throw, expected ' + ErrorType.name);
  };
  const rejects = async (label, ErrorType, promise) => {
    if (!(promise instanceof Promise)) {
      failures.push(label + ': did not return a promise');
      return;
    }
    try {
      await promise;
    } catch (error) {
      if (!(error instanceof ErrorType)) failures.push(label + ': rejected with ' + error + ', expected ' + ErrorType.name);
      return;
    }
    failures.push(label + ': resolved, expected a ' + ErrorType.name + ' rejection');
  };
  const check = (label, fn) => {
    try {
      fn();
    } catch (error) {
      failures.push(label + ': threw ' + error);
    }
  };
  // An iterator over `values` that records next and return calls in `log`.
  const loggingIterator = (values, log, extra) => {
    let i = 0;
    return Object.assign(Object.create(Iterator.prototype), {
      next() {
        log.push('next');
        return i < values.length ? {value: values[i++], done: false} : {value: undefined, done: true};
      },
      return() {
        log.push('return');
        return {value: undefined, done: true};
      },
    }, extra);
  };
  const loggingIterable = (values, log) => ({[Symbol.iterator]: () => loggingIterator(values, log)});
  const TypedArray = Object.getPrototypeOf(Int8Array);

  // ---- Property shapes --------------------------------------------------------------------------
  const methods = [
    [Array.prototype, 'findLast', 1], [Array.prototype, 'findLastIndex', 1],
    [Array.prototype, 'toReversed', 0], [Array.prototype, 'toSorted', 1],
    [Array.prototype, 'toSpliced', 2], [Array.prototype, 'with', 2],
    [TypedArray.prototype, 'findLast', 1], [TypedArray.prototype, 'findLastIndex', 1],
    [TypedArray.prototype, 'toReversed', 0], [TypedArray.prototype, 'toSorted', 1],
    [TypedArray.prototype, 'with', 2], [Array, 'fromAsync', 1], [Object, 'groupBy', 2],
    [Map, 'groupBy', 2], [Promise, 'withResolvers', 0], [Promise, 'try', 1],
    [String.prototype, 'isWellFormed', 0], [String.prototype, 'toWellFormed', 0],
    [Set.prototype, 'union', 1], [Set.prototype, 'intersection', 1],
    [Set.prototype, 'difference', 1], [Set.prototype, 'symmetricDifference', 1],
    [Set.prototype, 'isSubsetOf', 1], [Set.prototype, 'isSupersetOf', 1],
    [Set.prototype, 'isDisjointFrom', 1], [Iterator, 'from', 1],
    [Iterator.prototype, 'map', 1], [Iterator.prototype, 'filter', 1],
    [Iterator.prototype, 'take', 1], [Iterator.prototype, 'drop', 1],
    [Iterator.prototype, 'flatMap', 1], [Iterator.prototype, 'reduce', 1],
    [Iterator.prototype, 'toArray', 0], [Iterator.prototype, 'forEach', 1],
    [Iterator.prototype, 'some', 1], [Iterator.prototype, 'every', 1],
    [Iterator.prototype, 'find', 1],
  ];
  for (const [holder, name, length] of methods) {
    const label = name + ' on ' + (holder.name || (holder.constructor && holder.constructor.name));
    const d = Object.getOwnPropertyDescriptor(holder, name);
    if (!d || typeof d.value !== 'function') {
      failures.push(label + ': missing');
      continue;
    }
    ok(label + ' is writable, non-enumerable, configurable', d.writable && !d.enumerable && d.configurable);
    same(label + ' name', d.value.name, name);
    same(label + ' length', d.value.length, length);
    ok(label + ' has no prototype property', !Object.prototype.hasOwnProperty.call(d.value, 'prototype'));
    throws(label + ' is not a constructor', TypeError, () => new d.value());
  }
  const helperPrototype = Object.getPrototypeOf([].values().map((x) => x));
  const wrapPrototype = Object.getPrototypeOf(Iterator.from({next() {}}));
  for (const [holder, label] of [[helperPrototype, '%IteratorHelperPrototype%'], [wrapPrototype, '%WrapForValidIteratorPrototype%']]) {
    for (const name of ['next', 'return']) {
      const d = Object.getOwnPropertyDescriptor(holder, name);
      ok(label + '.' + name + ' is a method', d && typeof d.value === 'function' && d.writable && !d.enumerable && d.configurable);
      same(label + '.' + name + ' length', d && d.value.length, 0);
      throws(label + '.' + name + ' is not a constructor', TypeError, () => new d.value());
    }
    same(label + ' own keys', Reflect.ownKeys(holder).map(String),
         holder === helperPrototype ? ['next', 'return', 'Symbol(Symbol.toStringTag)'] : ['next', 'return']);
    ok(label + ' inherits from Iterator.prototype', Object.getPrototypeOf(holder) === Iterator.prototype);
  }
  check('%IteratorHelperPrototype%[@@toStringTag]', () => {
    const d = Object.getOwnPropertyDescriptor(helperPrototype, Symbol.toStringTag);
    same('helper toStringTag', d.value, 'Iterator Helper');
    ok('helper toStringTag is read-only, non-enumerable, configurable', !d.writable && !d.enumerable && d.configurable);
  });
  check('Array.prototype[@@unscopables]', () => {
    const u = Array.prototype[Symbol.unscopables];
    for (const name of ['findLast', 'findLastIndex', 'toReversed', 'toSorted', 'toSpliced']) ok('unscopables has ' + name, u[name] === true);
    ok('with is not unscopable', !('with' in u));
  });

  // ---- Array.prototype --------------------------------------------------------------------------
  check('findLast', () => {
    const seen = [];
    same('findLast value', [1, 2, 3, 4, 5].findLast((x) => x % 2 === 0), 4);
    same('findLastIndex value', [1, 2, 3, 4, 5].findLastIndex((x) => x % 2 === 0), 3);
    same('findLast none', [1, 3].findLast((x) => x > 5), undefined);
    same('findLastIndex none', [1, 3].findLastIndex((x) => x > 5), -1);
    [7, 8, 9].findLast(function (x, i, a) {
      seen.push([x, i, a.length, this.tag]);
    }, {tag: 't'});
    same('findLast visits from the end with (value, index, array) and thisArg', seen, [[9, 2, 3, 't'], [8, 1, 3, 't'], [7, 0, 3, 't']]);
    same('findLastIndex reads holes as undefined', [1, , 3].findLastIndex((x) => x === undefined), 1);
    same('findLast on an array-like', Array.prototype.findLast.call({length: 3, 0: 'a', 1: 'b', 2: 'c'}, (x) => x < 'c'), 'b');
    const grows = [1, 2, 3];
    same('findLast reads the length once', grows.findLast((x, i) => (grows.push(0), i === 0)), 1);
    throws('findLast with a non-callable predicate', TypeError, () => [].findLast({}));
    throws('findLastIndex on undefined', TypeError, () => Array.prototype.findLastIndex.call(undefined, () => true));
    same('findLast on a string', Array.prototype.findLast.call('abc', () => true), 'c');
  });
  check('toReversed', () => {
    const a = [1, 2, 3];
    same('toReversed', a.toReversed(), [3, 2, 1]);
    same('toReversed leaves the original', a, [1, 2, 3]);
    const r = [1, , 3].toReversed();
    same('toReversed reads holes as undefined', r, [3, undefined, 1]);
    ok('toReversed result has no holes', 1 in r);
    same('toReversed on an array-like', Array.prototype.toReversed.call({length: 2, 0: 'x', 1: 'y'}), ['y', 'x']);
    ok('toReversed returns an Array', Array.isArray(Array.prototype.toReversed.call({length: 0})));
    throws('toReversed of a length beyond 2^32 - 1', RangeError, () => Array.prototype.toReversed.call({length: 2 ** 32}));
    class Sub extends Array {}
    ok('toReversed ignores species', Object.getPrototypeOf(Sub.from([1]).toReversed()) === Array.prototype);
  });
  check('toSorted', () => {
    same('toSorted default compares strings', [10, 9, 1, 100].toSorted(), [1, 10, 100, 9]);
    same('toSorted with a comparator', [10, 9, 1, 100].toSorted((x, y) => x - y), [1, 9, 10, 100]);
    same('toSorted puts undefined and holes last', [3, undefined, 1, , 2].toSorted(), [1, 2, 3, undefined, undefined]);
    const rows = [{k: 1, n: 'a'}, {k: 0, n: 'b'}, {k: 1, n: 'c'}, {k: 0, n: 'd'}];
    same('toSorted is stable', rows.toSorted((x, y) => x.k - y.k).map((r) => r.n), ['b', 'd', 'a', 'c']);
    const a = [3, 1, 2];
    a.toSorted();
    same('toSorted leaves the original', a, [3, 1, 2]);
    let lengthRead = false;
    throws('toSorted with a non-callable comparator', TypeError, () => Array.prototype.toSorted.call({get length() {
      lengthRead = true;
      return 0;
    }}, 'nope'));
    ok('toSorted checks its comparator before reading the receiver', !lengthRead);
    same('toSorted coerces comparator results with ToNumber', [2, 1, 3].toSorted((x, y) => ({valueOf: () => x - y})), [1, 2, 3]);
    same('toSorted treats a NaN result as equal', [2, 1].toSorted(() => NaN), [2, 1]);
    throws('toSorted propagates a comparator error', SyntaxError, () => [1, 2].toSorted(() => {
      throw new SyntaxError('x');
    }));
    same('toSorted on an array-like', Array.prototype.toSorted.call({length: 3, 0: 'c', 1: 'a', 2: 'b'}), ['a', 'b', 'c']);
  });
  check('toSpliced', () => {
    const a = [1, 2, 3, 4, 5];
    same('toSpliced removes and inserts', a.toSpliced(1, 2, 'x', 'y', 'z'), [1, 'x', 'y', 'z', 4, 5]);
    same('toSpliced leaves the original', a, [1, 2, 3, 4, 5]);
    same('toSpliced with no arguments copies', a.toSpliced(), [1, 2, 3, 4, 5]);
    same('toSpliced with one argument removes the rest', a.toSpliced(2), [1, 2]);
    same('toSpliced with a negative start', a.toSpliced(-2, 1), [1, 2, 3, 5]);
    same('toSpliced clamps the skip count', a.toSpliced(3, 99), [1, 2, 3]);
    same('toSpliced with a negative skip count', a.toSpliced(1, -1, 0), [1, 0, 2, 3, 4, 5]);
    same('toSpliced with undefined start and count', a.toSpliced(undefined, undefined), [1, 2, 3, 4, 5]);
    same('toSpliced reads holes as undefined', [1, , 3].toSpliced(0, 0), [1, undefined, 3]);
    same('toSpliced on an array-like', Array.prototype.toSpliced.call({length: 2, 0: 'a', 1: 'b'}, 1, 0, 'c'), ['a', 'c', 'b']);
    throws('toSpliced beyond 2^53 - 1 elements', TypeError, () => Array.prototype.toSpliced.call({length: 2 ** 53 - 1}, 0, 0, 1));
    throws('toSpliced beyond 2^32 - 1 elements', RangeError, () => Array.prototype.toSpliced.call({length: 2 ** 32 - 1}, 0, 0, 1));
  });
  check('with', () => {
    const a = [1, 2, 3];
    same('with', a.with(1, 'b'), [1, 'b', 3]);
    same('with a negative index', a.with(-1, 'c'), [1, 2, 'c']);
    same('with leaves the original', a, [1, 2, 3]);
    throws('with past the end', RangeError, () => a.with(3, 0));
    throws('with before the start', RangeError, () => a.with(-4, 0));
    throws('with -Infinity', RangeError, () => a.with(-Infinity, 0));
    same('with truncates the index', a.with(1.7, 0), [1, 0, 3]);
    same('with reads holes as undefined', [1, , 3].with(0, 0), [0, undefined, 3]);
    throws('with beyond 2^32 - 1 elements', RangeError, () => Array.prototype.with.call({length: 2 ** 32}, 0, 0));
  });

  // ---- %TypedArray%.prototype -------------------------------------------------------------------
  check('typed arrays', () => {
    const f = new Float64Array([3, NaN, -0, 0, -1, Infinity]);
    same('toSorted sorts numbers, -0 before +0, NaN last', f.toSorted(), new Float64Array([-1, -0, 0, 3, Infinity, NaN]));
    same('toSorted leaves the original', f, new Float64Array([3, NaN, -0, 0, -1, Infinity]));
    same('toSorted with a comparator', new Int8Array([1, 3, 2]).toSorted((x, y) => y - x), new Int8Array([3, 2, 1]));
    same('toSorted of BigInts', new BigInt64Array([3n, -1n, 2n]).toSorted(), new BigInt64Array([-1n, 2n, 3n]));
    throws('toSorted with a non-callable comparator', TypeError, () => new Int8Array(1).toSorted(1));
    same('toReversed', new Uint8Array([1, 2, 3]).toReversed(), new Uint8Array([3, 2, 1]));
    ok('toReversed keeps the element type', new Uint16Array(2).toReversed() instanceof Uint16Array);
    same('with', new Int16Array([1, 2, 3]).with(-1, 7), new Int16Array([1, 2, 7]));
    same('with converts the value', new Uint8Array([1]).with(0, 257), new Uint8Array([1]));
    same('with converts with ToNumber', new Float32Array([1]).with(0, '2.5'), new Float32Array([2.5]));
    same('with on BigInts', new BigUint64Array([1n]).with(0, 5n), new BigUint64Array([5n]));
    throws('with a Number into BigInts', TypeError, () => new BigInt64Array(1).with(0, 1));
    throws('with a BigInt into Numbers', TypeError, () => new Int8Array(1).with(0, 1n));
    throws('with out of range', RangeError, () => new Int8Array(2).with(2, 0));
    const order = [];
    throws('with converts the value before checking the index', RangeError, () => new Int8Array(1).with(5, {valueOf() {
      order.push('valueOf');
      return 1;
    }}));
    same('with converted the value', order, ['valueOf']);
    order.length = 0;
    new Int8Array(2).with({valueOf: () => (order.push('index'), 0)}, {valueOf: () => (order.push('value'), 1)});
    same('with converts the index, then the value', order, ['index', 'value']);
    const early = new Int8Array([0, 1, 2]);
    same('with copies after converting the value', early.with(1, {valueOf() {
      early[0] = 3;
      return 4;
    }}), new Int8Array([3, 4, 2]));
    same('findLast', new Int8Array([1, 2, 3, 4]).findLast((x) => x < 3), 2);
    same('findLastIndex', new Int8Array([1, 2, 3, 4]).findLastIndex((x) => x > 9), -1);
    throws('findLast on a plain array', TypeError, () => TypedArray.prototype.findLast.call([1], () => true));
    throws('toReversed on a plain array', TypeError, () => TypedArray.prototype.toReversed.call([1]));
    throws('with on a plain object', TypeError, () => TypedArray.prototype.with.call({length: 1}, 0, 0));
  });

  // ---- Array.fromAsync --------------------------------------------------------------------------
  {
    same('fromAsync of an array of promises', await Array.fromAsync([Promise.resolve(1), 2, Promise.resolve(3)]), [1, 2, 3]);
    async function* generate() {
      yield 1;
      yield 2;
    }
    same('fromAsync of an async generator', await Array.fromAsync(generate()), [1, 2]);
    same('fromAsync with a mapper', await Array.fromAsync([1, 2], async (x, i) => x * 10 + i), [10, 21]);
    same('fromAsync with thisArg', await Array.fromAsync([1], function (x) {
      return this.add + x;
    }, {add: 5}), [6]);
    same('fromAsync of an array-like', await Array.fromAsync({length: 2, 0: Promise.resolve('a'), 1: 'b'}), ['a', 'b']);
    same('fromAsync of a string', await Array.fromAsync('ab'), ['a', 'b']);
    const result = Array.fromAsync(null);
    await rejects('fromAsync of null rejects', TypeError, result);
    await rejects('fromAsync with a non-callable mapper rejects', TypeError, Array.fromAsync([], 5));
    function C() {
      this.made = true;
    }
    const custom = await Array.fromAsync.call(C, [1, 2]);
    ok('fromAsync constructs its this value', custom instanceof C && custom.made && custom.length === 2 && custom[1] === 2);
    const likeCustom = await Array.fromAsync.call(C, {length: 1, 0: 'x'});
    ok('fromAsync constructs its this value for array-likes', likeCustom instanceof C && likeCustom.length === 1);
    ok('fromAsync with a non-constructor this makes an Array', Array.isArray(await Array.fromAsync.call({}, [1])));
    const log = [];
    const asyncIterable = {
      [Symbol.asyncIterator]() {
        return {
          next: () => Promise.resolve({value: 1, done: false}),
          return: () => {
            log.push('return');
            return Promise.resolve({done: true});
          },
        };
      },
    };
    await rejects('fromAsync propagates a mapper error', SyntaxError, Array.fromAsync(asyncIterable, () => {
      throw new SyntaxError('m');
    }));
    same('fromAsync closes the async iterator on a mapper error', log, ['return']);
    const syncLog = [];
    await rejects('fromAsync rejects on a rejected element', RangeError,
                  Array.fromAsync(loggingIterable([1, Promise.reject(new RangeError('r')), 3], syncLog)));
    same('fromAsync closes a sync iterator on a rejected element', syncLog, ['next', 'next', 'return']);
    const ticks = [];
    const pending = Array.fromAsync([1]).then(() => ticks.push('done'));
    ticks.push('sync');
    await pending;
    same('fromAsync resolves later', ticks, ['sync', 'done']);
  }

  // ---- Object.groupBy, Map.groupBy --------------------------------------------------------------
  check('Object.groupBy', () => {
    const stock = [{name: 'pear', type: 'fruit'}, {name: 'leek', type: 'vegetable'}, {name: 'fig', type: 'fruit'}];
    const byType = Object.groupBy(stock, (item) => item.type);
    same('groupBy groups', byType, {fruit: [stock[0], stock[2]], vegetable: [stock[1]]});
    ok('groupBy returns a null-prototype object', Object.getPrototypeOf(byType) === null);
    ok('groupBy groups are Arrays', Array.isArray(byType.fruit) && Object.getPrototypeOf(byType.fruit) === Array.prototype);
    const seen = [];
    Object.groupBy('ab', (c, i) => seen.push(c + i));
    same('groupBy passes (value, index) over any iterable', seen, ['a0', 'b1']);
    const sym = Symbol('s');
    same('groupBy keys through ToPropertyKey', Reflect.ownKeys(Object.groupBy([1, 2, 3, 4], (x) => (x === 4 ? sym : x % 2 ? {toString: () => 'odd'} : 2))),
         ['2', 'odd', sym]);
    same('groupBy keeps __proto__ as a key', Object.groupBy([1], () => '__proto__').__proto__, [1]);
    throws('groupBy of null', TypeError, () => Object.groupBy(null, (x) => x));
    throws('groupBy of a non-iterable', TypeError, () => Object.groupBy({}, (x) => x));
    throws('groupBy with a non-callable', TypeError, () => Object.groupBy([], 'x'));
    const log = [];
    throws('groupBy propagates a callback error', EvalError, () => Object.groupBy(loggingIterable([1, 2], log), () => {
      throw new EvalError('e');
    }));
    same('groupBy closes the iterator on a callback error', log, ['next', 'return']);
    let nextReads = 0;
    let n = 0;
    const counting = {get next() {
      nextReads++;
      return () => (n < 3 ? {value: n++, done: false} : {value: undefined, done: true});
    }};
    Object.groupBy({[Symbol.iterator]: () => counting}, (x) => x);
    same('groupBy reads next once', nextReads, 1);
  });
  check('Map.groupBy', () => {
    const low = {tier: 'low'};
    const high = {tier: 'high'};
    const result = Map.groupBy([1, 15, 3, 20], (x) => (x < 10 ? low : high));
    ok('Map.groupBy returns a Map', result instanceof Map && Object.getPrototypeOf(result) === Map.prototype);
    same('Map.groupBy keys by identity', [result.get(low), result.get(high)], [[1, 3], [15, 20]]);
    same('Map.groupBy turns -0 into +0', Array.from(Map.groupBy([1], () => -0).keys()), [0]);
    same('Map.groupBy uses SameValueZero', Map.groupBy([1, 2], () => NaN).get(NaN), [1, 2]);
    throws('Map.groupBy with a non-callable', TypeError, () => Map.groupBy([], null));
  });

  // ---- Promise.withResolvers, Promise.try -------------------------------------------------------
  {
    const {promise, resolve, reject} = Promise.withResolvers();
    ok('withResolvers gives a promise', promise instanceof Promise);
    ok('withResolvers gives functions', typeof resolve === 'function' && typeof reject === 'function');
    resolve(42);
    same('withResolvers resolve', await promise, 42);
    const second = Promise.withResolvers();
    second.reject(new URIError('u'));
    await rejects('withResolvers reject', URIError, second.promise);
    same('withResolvers result keys', Object.keys(second), ['promise', 'resolve', 'reject']);
    class MyPromise extends Promise {}
    ok('withResolvers uses its this value', MyPromise.withResolvers().promise instanceof MyPromise);
    throws('withResolvers on a non-constructor', TypeError, () => Promise.withResolvers.call({}));

    const order = [];
    const tried = Promise.try(() => {
      order.push('called');
      return 'v';
    });
    order.push('after');
    same('Promise.try calls the callback at once', order, ['called', 'after']);
    same('Promise.try resolves with the result', await tried, 'v');
    same('Promise.try passes arguments', await Promise.try((a, b) => a + b, 1, 2), 3);
    await rejects('Promise.try turns a throw into a rejection', ReferenceError, Promise.try(() => {
      throw new ReferenceError('r');
    }));
    await rejects('Promise.try with a non-callable rejects', TypeError, Promise.try(5));
    same('Promise.try adopts a returned promise', await Promise.try(() => Promise.resolve('p')), 'p');
    throws('Promise.try on a non-object', TypeError, () => Promise.try.call(1, () => 1));
  }

  // ---- String.prototype.isWellFormed, toWellFormed ----------------------------------------------
  check('well-formed strings', () => {
    const cases = [
      ['abc', true, 'abc'], ['a\uD800', false, 'a\uFFFD'], ['a\uD800c', false, 'a\uFFFDc'],
      ['\uDFFFab', false, '\uFFFDab'], ['c\uDFFFab', false, 'c\uFFFDab'], ['a\uD83D\uDE04c', true, 'a\uD83D\uDE04c'],
      ['\uDE04\uD83D', false, '\uFFFD\uFFFD'], ['\uD800\uD800\uDC00', false, '\uFFFD\uD800\uDC00'], ['', true, ''],
    ];
    for (const [input, wellFormed, fixed] of cases) {
      same('isWellFormed ' + JSON.stringify(input), input.isWellFormed(), wellFormed);
      same('toWellFormed ' + JSON.stringify(input), input.toWellFormed(), fixed);
    }
    same('isWellFormed coerces its this value', String.prototype.isWellFormed.call(12), true);
    same('toWellFormed coerces objects', String.prototype.toWellFormed.call({toString: () => 'x\uDC00'}), 'x\uFFFD');
    throws('isWellFormed on null', TypeError, () => String.prototype.isWellFormed.call(null));
    throws('toWellFormed on undefined', TypeError, () => String.prototype.toWellFormed.call(undefined));
    throws('toWellFormed on a symbol', TypeError, () => String.prototype.toWellFormed.call(Symbol('s')));
  });

  // ---- Set.prototype ----------------------------------------------------------------------------
  check('Set methods', () => {
    const odds = new Set([1, 3, 5, 7, 9]);
    const squares = new Set([1, 4, 9]);
    same('union', odds.union(squares), new Set([1, 3, 5, 7, 9, 4]));
    same('intersection', odds.intersection(squares), new Set([1, 9]));
    same('intersection when the argument is smaller keeps its order', new Set([9, 8, 1]).intersection(new Set([1, 9])), new Set([1, 9]));
    same('difference', odds.difference(squares), new Set([3, 5, 7]));
    same('symmetricDifference', odds.symmetricDifference(squares), new Set([3, 5, 7, 4]));
    same('isSubsetOf', [new Set([1, 9]).isSubsetOf(odds), squares.isSubsetOf(odds)], [true, false]);
    same('isSupersetOf', [odds.isSupersetOf(new Set([3, 5])), odds.isSupersetOf(squares)], [true, false]);
    same('isDisjointFrom', [odds.isDisjointFrom(new Set([2, 4])), odds.isDisjointFrom(squares)], [true, false]);
    same('the receiver is unchanged', odds, new Set([1, 3, 5, 7, 9]));
    class MySet extends Set {}
    ok('results are plain Sets', Object.getPrototypeOf(new MySet([1]).union(new Set())) === Set.prototype);
    same('a Map is set-like', new Set([1]).union(new Map([[2, 'two']])), new Set([1, 2]));
    const setLike = {size: 2, has: (x) => x === 1 || x === 2, keys: () => [1, 2][Symbol.iterator]()};
    same('a set-like object', new Set([2, 3]).intersection(setLike), new Set([2]));
    same('an infinite set-like object', new Set([1, 5]).difference({size: Infinity, has: (x) => x > 3, keys() {
      throw new Error('keys must not be called');
    }}), new Set([1]));
    same('union turns -0 into +0', Array.from(new Set().union({size: 1, has: () => false, keys: () => [-0].values()})), [0]);
    throws('an array is not set-like', TypeError, () => odds.union([1]));
    throws('a primitive is not set-like', TypeError, () => odds.union(1));
    throws('size NaN', TypeError, () => odds.union({size: undefined, has() {}, keys() {}}));
    throws('size negative', RangeError, () => odds.union({size: -1, has() {}, keys() {}}));
    throws('has not callable', TypeError, () => odds.union({size: 1, has: 1, keys() {}}));
    throws('keys not callable', TypeError, () => odds.union({size: 1, has() {}, keys: 1}));
    throws('keys() not an object', TypeError, () => odds.union({size: 1, has() {}, keys: () => 1}));
    throws('receiver not a Set', TypeError, () => Set.prototype.union.call(new Map(), new Set()));
    const reads = [];
    const tracked = {
      get size() {
        reads.push('size');
        return 1;
      },
      get has() {
        reads.push('has');
        return () => true;
      },
      get keys() {
        reads.push('keys');
        return () => [].values();
      },
    };
    new Set().union(tracked);
    same('GetSetRecord reads size, has, keys in order', reads, ['size', 'has', 'keys']);
    const log = [];
    const big = {size: 5, has: () => false, keys: () => loggingIterator([1, 2, 3], log)};
    same('isSupersetOf returns false early', new Set([1]).isSupersetOf(big), false);
    same('isSupersetOf with a larger argument reads no keys', log, []);
    same('isSupersetOf stops at a missing key', new Set([1, 3, 4, 5, 6]).isSupersetOf(big), false);
    same('isSupersetOf closes the keys iterator', log, ['next', 'next', 'return']);
    log.length = 0;
    same('isDisjointFrom closes the keys iterator', new Set([9, 8, 7, 6, 5, 2]).isDisjointFrom(big), false);
    same('isDisjointFrom stepped twice, then closed', log, ['next', 'next', 'return']);
    const grows = new Set([1, 2]);
    const seen = [];
    grows.isSubsetOf({size: 10, has(x) {
      seen.push(x);
      if (x === 1) grows.add(3);
      return true;
    }, keys() {}});
    same('isSubsetOf sees elements added while it runs', seen, [1, 2, 3]);
  });

  // ---- Iterator ---------------------------------------------------------------------------------
  check('the Iterator constructor', () => {
    ok('Iterator is a function', typeof Iterator === 'function');
    const d = Object.getOwnPropertyDescriptor(globalThis, 'Iterator');
    ok('globalThis.Iterator is writable, non-enumerable, configurable', d.writable && !d.enumerable && d.configurable);
    same('Iterator.length', Iterator.length, 0);
    same('Iterator.name', Iterator.name, 'Iterator');
    const arrayIteratorPrototype = Object.getPrototypeOf([][Symbol.iterator]());
    ok('Iterator.prototype is %IteratorPrototype%', Iterator.prototype === Object.getPrototypeOf(arrayIteratorPrototype));
    const p = Object.getOwnPropertyDescriptor(Iterator, 'prototype');
    ok('Iterator.prototype is fixed', !p.writable && !p.enumerable && !p.configurable);
    throws('new Iterator()', TypeError, () => new Iterator());
    throws('Iterator()', TypeError, () => Iterator());
    class Counter extends Iterator {
      constructor(limit) {
        super();
        this.i = 0;
        this.limit = limit;
      }
      next() {
        return this.i < this.limit ? {value: this.i++, done: false} : {value: undefined, done: true};
      }
    }
    same('a subclass of Iterator gets the helpers', new Counter(5).filter((x) => x % 2).toArray(), [1, 3]);
    ok('instances of a subclass are Iterators', new Counter(0) instanceof Iterator);
    ok('generators are Iterators', (function* () {})() instanceof Iterator);
    ok('map iterators have the helpers', typeof new Map().keys().map === 'function');
    same('Iterator.prototype.constructor', Iterator.prototype.constructor, Iterator);
    same('Iterator.prototype[@@toStringTag]', Iterator.prototype[Symbol.toStringTag], 'Iterator');
    same('toString of a plain iterator', Object.prototype.toString.call(Object.create(Iterator.prototype)), '[object Iterator]');
    for (const key of ['constructor', Symbol.toStringTag]) {
      const accessor = Object.getOwnPropertyDescriptor(Iterator.prototype, key);
      ok(String(key) + ' is an accessor', accessor && typeof accessor.get === 'function' && typeof accessor.set === 'function' && !accessor.enumerable && accessor.configurable);
      throws('assigning ' + String(key) + ' on Iterator.prototype', TypeError, () => {
        Iterator.prototype[key] = 1;
      });
      const derived = Object.create(Iterator.prototype);
      derived[key] = 'own';
      const own = Object.getOwnPropertyDescriptor(derived, key);
      ok('assigning ' + String(key) + ' on an heir creates a data property', own && own.value === 'own' && own.writable && own.enumerable && own.configurable);
      throws('the ' + String(key) + ' setter on a primitive', TypeError, () => accessor.set.call(1, 2));
    }
    same('accessor names', [Object.getOwnPropertyDescriptor(Iterator.prototype, 'constructor').get.name,
      Object.getOwnPropertyDescriptor(Iterator.prototype, Symbol.toStringTag).set.name],
         ['get constructor', 'set [Symbol.toStringTag]']);
  });
  check('Iterator.from', () => {
    const generator = (function* () {
      yield 1;
    })();
    ok('Iterator.from returns an Iterator unchanged', Iterator.from(generator) === generator);
    same('Iterator.from of an iterable', Iterator.from(new Set(['a', 'b'])).toArray(), ['a', 'b']);
    same('Iterator.from of a string', Iterator.from('h\uD83D\uDE04').toArray(), ['h', '\uD83D\uDE04']);
    const plain = {i: 0, next() {
      return this.i < 2 ? {value: this.i++, done: false} : {value: undefined, done: true};
    }};
    const wrapped = Iterator.from(plain);
    ok('Iterator.from wraps a plain iterator', wrapped !== plain && wrapped instanceof Iterator);
    same('the wrapper forwards next', wrapped.map((x) => x * 2).toArray(), [0, 2]);
    same('the wrapper return without an underlying return', wrapped.return(), {value: undefined, done: true});
    const log = [];
    const closable = Iterator.from({next: () => ({done: true}), return: () => (log.push('return'), {done: true, value: 'r'})});
    same('the wrapper forwards return', closable.return(), {done: true, value: 'r'});
    same('the wrapper called return', log, ['return']);
    throws('Iterator.from of a number', TypeError, () => Iterator.from(5));
    throws('Iterator.from of null', TypeError, () => Iterator.from(null));
    throws('the wrapper rejects another receiver', TypeError, () => wrapped.next.call({}));
    throws('Iterator.from with a bad @@iterator', TypeError, () => Iterator.from({[Symbol.iterator]: 5}));
  });
  check('iterator helpers', () => {
    function* naturals() {
      let n = 0;
      for (;;) yield n++;
    }
    same('map', naturals().map((x, i) => [x, i]).take(3).toArray(), [[0, 0], [1, 1], [2, 2]]);
    same('filter', naturals().filter((x) => x % 3 === 0).take(3).toArray(), [0, 3, 6]);
    same('take', naturals().take(2).toArray(), [0, 1]);
    same('take Infinity of a finite iterator', [1, 2].values().take(Infinity).toArray(), [1, 2]);
    same('drop', naturals().drop(5).take(2).toArray(), [5, 6]);
    same('drop more than there is', [1, 2].values().drop(5).toArray(), []);
    same('flatMap', ['ab', 'cd'].values().flatMap((s) => s.split('')).toArray(), ['a', 'b', 'c', 'd']);
    same('flatMap of iterators', [1, 2].values().flatMap((n) => naturals().take(n)).toArray(), [0, 0, 1]);
    throws('flatMap rejects a string', TypeError, () => ['ab'].values().flatMap((s) => s).next());
    same('reduce', naturals().take(5).reduce((sum, x) => sum + x), 10);
    same('reduce with an initial value', naturals().take(3).reduce((acc, x, i) => acc + x * i, 100), 105);
    throws('reduce of nothing', TypeError, () => [].values().reduce((a, b) => a + b));
    same('reduce of nothing with an initial value', [].values().reduce((a, b) => a + b, 'init'), 'init');
    const visited = [];
    same('forEach returns undefined', [5, 6].values().forEach((x, i) => visited.push([x, i])), undefined);
    same('forEach visits (value, index)', visited, [[5, 0], [6, 1]]);
    same('some', [naturals().some((x) => x > 3), [1].values().some((x) => x > 3)], [true, false]);
    same('every', [[2, 4].values().every((x) => x % 2 === 0), naturals().every((x) => x < 3)], [true, false]);
    same('find', [naturals().find((x) => x * x > 50), [1].values().find((x) => x > 1)], [8, undefined]);
    same('toArray', new Map([[1, 'a']]).entries().toArray(), [[1, 'a']]);

    const calls = [];
    const lazy = naturals().map((x) => (calls.push(x), x));
    same('helpers are lazy', calls, []);
    lazy.next();
    same('a helper maps one value per next', calls, [0]);
    same('a helper result', lazy.next(), {value: 1, done: false});

    const helper = [1].values().map((x) => x);
    same('helper toString', Object.prototype.toString.call(helper), '[object Iterator Helper]');
    same('helper has no own properties', Reflect.ownKeys(helper), []);
    same('exhausted helper', [helper.next(), helper.next(), helper.next()], [{value: 1, done: false}, {value: undefined, done: true}, {value: undefined, done: true}]);
    throws('helper next on another receiver', TypeError, () => helper.next.call([].values()));
    throws('helper return on another receiver', TypeError, () => helper.return.call({}));

    let log = [];
    const before = loggingIterator([1, 2], log).map((x) => x);
    same('return before the first next', before.return(), {value: undefined, done: true});
    same('return before the first next closes the underlying iterator', log, ['return']);
    same('a returned helper is done', before.next(), {value: undefined, done: true});
    log = [];
    const during = loggingIterator([1, 2], log).filter(() => true);
    during.next();
    during.return();
    same('return after a value closes the underlying iterator', log, ['next', 'return']);
    during.return();
    same('return on a finished helper does nothing', log, ['next', 'return']);
    log = [];
    const mapped = loggingIterator([1, 2], log).map(() => {
      throw new RangeError('m');
    });
    throws('a mapper error propagates', RangeError, () => mapped.next());
    same('a mapper error closes the underlying iterator', log, ['next', 'return']);
    same('a helper is finished after an error', mapped.next(), {value: undefined, done: true});
    log = [];
    const nextThrows = loggingIterator([], log, {next() {
      throw new EvalError('n');
    }}).map((x) => x);
    throws('an underlying next error propagates', EvalError, () => nextThrows.next());
    same('an underlying next error does not close', log, []);
    log = [];
    const limited = loggingIterator([1, 2, 3], log).take(1);
    same('take yields up to the limit', [limited.next(), limited.next()], [{value: 1, done: false}, {value: undefined, done: true}]);
    same('take closes the underlying iterator at the limit', log, ['next', 'return']);
    log = [];
    const dropped = loggingIterator([1, 2, 3], log).drop(2);
    same('drop skips without reading values', dropped.toArray(), [3]);
    same('drop steps the underlying iterator', log, ['next', 'next', 'next', 'next']);
    log = [];
    const inner = loggingIterator(['x', 'y'], log);
    const outerLog = [];
    const flat = loggingIterator([1], outerLog).flatMap(() => inner);
    flat.next();
    flat.return();
    same('flatMap return closes the inner iterator', log, ['next', 'return']);
    same('flatMap return closes the outer iterator', outerLog, ['next', 'return']);
    let reentered;
    const reentrant = [1].values().map(() => {
      try {
        reentrant.next();
      } catch (error) {
        reentered = error;
      }
    });
    reentrant.next();
    ok('a running helper refuses next', reentered instanceof TypeError);
    const taken = loggingIterator([1], []).take(0);
    same('take(0) yields nothing', taken.toArray(), []);

    for (const [name, arg, ErrorType] of [['map', 1, TypeError], ['filter', null, TypeError], ['flatMap', {}, TypeError],
      ['reduce', undefined, TypeError], ['forEach', 'x', TypeError], ['some', 1, TypeError], ['every', 1, TypeError],
      ['find', 1, TypeError], ['take', -1, RangeError], ['take', NaN, RangeError], ['drop', -0.5 - 1, RangeError],
      ['drop', 'a', RangeError]]) {
      log = [];
      const receiver = loggingIterator([1], log);
      throws(name + '(' + String(arg) + ')', ErrorType, () => receiver[name](arg));
      same(name + ' closes its receiver when the argument is invalid', log, ['return']);
    }
    same('take(-0.5) is take(0)', [1].values().take(-0.5).toArray(), []);
    throws('map on a non-object', TypeError, () => Iterator.prototype.map.call(1, (x) => x));
    throws('toArray on a non-object', TypeError, () => Iterator.prototype.toArray.call('ab'));
    const reads = [];
    Iterator.prototype.take.call({get next() {
      reads.push('next');
      return () => ({done: true});
    }}, {valueOf() {
      reads.push('valueOf');
      return 1;
    }});
    same('take converts its limit before reading next', reads, ['valueOf', 'next']);
    let nextReads = 0;
    const counted = {
      get next() {
        nextReads++;
        let i = 0;
        return () => (i++ < 3 ? {value: i, done: false} : {done: true});
      },
    };
    same('next is read once', Iterator.prototype.toArray.call(counted), [1, 2, 3]);
    same('next was read once', nextReads, 1);
    log = [];
    same('some closes the iterator when it finds', loggingIterator([1, 2, 3], log).some((x) => x === 2), true);
    same('some closed after two', log, ['next', 'next', 'return']);
    log = [];
    same('every closes the iterator when it fails', loggingIterator([1, 2, 3], log).every((x) => x < 1), false);
    same('every closed after one', log, ['next', 'return']);
    log = [];
    same('find closes the iterator when it finds', loggingIterator([1, 2, 3], log).find((x) => x === 1), 1);
    same('find closed after one', log, ['next', 'return']);
    throws('a non-object iterator result', TypeError, () => Iterator.prototype.toArray.call({next: () => 1}));
  });

  // ---- A program that replaces built-ins later does not change the library ------------------------
  {
    // Inputs are made before the built-ins are replaced (the Set constructor calls add, for one).
    const setOf12 = new Set([1, 2]);
    const setOf1 = new Set([1]);
    const setOf2 = new Set([2]);
    const setOf24 = new Set([2, 4]);
    const int8 = new Int8Array([2, 1]);
    const mapGet = Map.prototype.get;
    // What groupBy iterates, through its own @@iterator (the specification reads items' @@iterator).
    const iterable = (values) => ({
      [Symbol.iterator]() {
        let i = 0;
        return {next: () => (i < values.length ? {value: values[i++], done: false} : {value: undefined, done: true})};
      },
    });
    const saved = [];
    const define = Object.defineProperty;
    const replace = (object, key, value) => {
      saved[saved.length] = {object, key, descriptor: Object.getOwnPropertyDescriptor(object, key)};
      define(object, key, {__proto__: null, value, writable: true, configurable: true});
    };
    const broken = () => {
      throw new Error('a replaced built-in was called');
    };
    for (const [object, key] of [
      [Array.prototype, 'sort'], [Function.prototype, 'call'], [Function.prototype, 'apply'],
      [Function.prototype, 'bind'], [Reflect, 'apply'], [Reflect, 'defineProperty'], [Object, 'setPrototypeOf'],
      [Set.prototype, 'add'], [Set.prototype, 'has'], [Set.prototype, 'delete'], [Set.prototype, 'values'],
      [Set.prototype, Symbol.iterator], [Map.prototype, 'get'], [Map.prototype, 'set'], [RegExp.prototype, 'exec'],
      [RegExp.prototype, Symbol.replace], [String.prototype, 'slice'], [Math, 'trunc'], [TypedArray.prototype, 'set'],
      [TypedArray.prototype, 'sort'], [TypedArray.prototype, 'reverse'], [Object, 'defineProperty'],
    ]) {
      replace(object, key, broken);
    }
    replace(Array.prototype, Symbol.iterator, broken);  // after the loop, which destructures
    replace(Object.prototype, 'get', broken);  // a descriptor that inherits would turn into an accessor
    define(Array.prototype, '0', {__proto__: null, set: broken, configurable: true});
    saved[saved.length] = {object: Array.prototype, key: '0', descriptor: undefined};
    // An indexed setter on Array.prototype is in place: results go into a string, not an array.
    let results = '';
    let groupedByParity;
    const add = (...values) => {
      for (let i = 0; i < values.length; i++) results += values[i] + ';';
    };
    try {
      add([3, 1, 2].toSorted().join());
      add([3, 1, 2].toSorted((a, b) => b - a).join());
      add([1, 2].toReversed().join(), [1, 2].with(0, 9).join(), [1, 2].toSpliced(0, 1, 7).join());
      add(int8.toSorted().join(), int8.toReversed().join(), int8.with(0, 5).join());
      add(setOf12.union(setOf2).size, setOf12.intersection(setOf2).size, setOf12.isSupersetOf(setOf1));
      add(setOf12.symmetricDifference(setOf24).size, setOf12.difference(setOf1).size);
      add('a\uD800'.toWellFormed() === 'a\uFFFD' ? 'wf' : 'not wf', 'a\uD800'.isWellFormed());
      add(Reflect.apply.length === 0 ? 'replaced' : 'not replaced');
      const grouped = Map.groupBy(iterable([1, 2, 3]), (x) => x % 2);
      add(grouped instanceof Map, Object.getPrototypeOf(grouped) === Map.prototype);
      add(Object.groupBy(iterable([1, 2]), (x) => x)[1].length);
      const it = {i: 0, next() {
        return this.i < 3 ? {value: this.i++, done: false} : {done: true};
      }};
      add(Iterator.from(it).map((x) => x + 1).toArray().join());
      add(Promise.withResolvers().promise instanceof Promise);
      add(Object.getPrototypeOf([1].toReversed()) === Array.prototype);
      add(Object.getPrototypeOf(setOf12.union(setOf2)) === Set.prototype);
      groupedByParity = grouped;
    } catch (error) {
      add('threw ' + error);
    } finally {
      for (let i = saved.length - 1; i >= 0; i--) {
        const entry = saved[i];
        if (entry.descriptor) define(entry.object, entry.key, entry.descriptor);
        else delete entry.object[entry.key];
      }
    }
    same('the library keeps working when the program replaces built-ins', results,
         '1,2,3;3,2,1;2,1;9,2;7,2;1,2;1,2;5,1;2;1;true;2;1;wf;false;replaced;true;true;1;1,2,3;true;true;true;');
    same('Map.groupBy built its groups while Map.prototype.set was replaced', groupedByParity && mapGet.call(groupedByParity, 1), [1, 3]);
  }

  return failures;
}
