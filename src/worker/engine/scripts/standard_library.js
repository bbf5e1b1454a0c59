(function installStandardLibrary(global) {
  'use strict';
  // The ECMAScript 2022-2025 library that SpiderMonkey 102 predates, written against the
  // specification's text (ES2025) and installed into the program's own realm before the program
  // runs. It holds no authority the program lacks: everything here is plain JavaScript over
  // standard built-ins. Each property is defined only where the engine has none, so a newer
  // engine's native method wins.
  //
  // Robustness: the program may later replace any built-in (Array.prototype.sort,
  // Function.prototype.call, Set.prototype.add, ...). Everything called at run time is captured
  // below, before any program code runs. Internal loops never use for-of, spread or array
  // destructuring over internal arrays (they would call the program's iterators); for-of appears
  // only where the specification itself iterates the caller's value.
  //
  // Speed: programs run in an interpreter. Callbacks that the specification calls with an
  // undefined this-value are called directly (a strict-mode call passes undefined); Reflect.apply
  // is used only where a this-value is needed (it is several times cheaper than a bound call).
  // New arrays, sets and maps are filled while their prototype is a private object (or null), so
  // that a property the program put on Array.prototype (an indexed setter, say) cannot see the
  // writes: the result is what CreateDataProperty would build. The real prototype is set last.

  // ---- Captured built-ins ---------------------------------------------------------------------
  const $Array = global.Array;
  const $Map = global.Map;
  const $Object = global.Object;
  const $Promise = global.Promise;
  const $Proxy = global.Proxy;
  const $RangeError = global.RangeError;
  const $Set = global.Set;
  const $String = global.String;
  const $TypeError = global.TypeError;
  const $BigIntAsIntN = global.BigInt.asIntN;
  const $Symbol = global.Symbol;
  const SymbolIterator = $Symbol.iterator;
  const SymbolAsyncIterator = $Symbol.asyncIterator;
  const SymbolToStringTag = $Symbol.toStringTag;
  const SymbolUnscopables = $Symbol.unscopables;
  const mathTrunc = global.Math.trunc;
  const ReflectApply = global.Reflect.apply;
  const ReflectDefineProperty = global.Reflect.defineProperty;
  const ReflectGetOwnPropertyDescriptor = global.Reflect.getOwnPropertyDescriptor;
  const ReflectOwnKeys = global.Reflect.ownKeys;
  const ObjectCreate = $Object.create;
  const ObjectDefineProperty = $Object.defineProperty;
  const ObjectGetPrototypeOf = $Object.getPrototypeOf;
  const ObjectSetPrototypeOf = $Object.setPrototypeOf;
  const ObjectPrototype = $Object.prototype;
  const ObjectIsPrototypeOf = ObjectPrototype.isPrototypeOf;
  const ArrayPrototype = $Array.prototype;
  const ArraySort = ArrayPrototype.sort;
  const MapPrototype = $Map.prototype;
  const SetPrototype = $Set.prototype;
  const SetHas = SetPrototype.has;
  const SetAdd = SetPrototype.add;
  const SetDelete = SetPrototype.delete;
  const SetValues = SetPrototype.values;
  const SetSize = ReflectGetOwnPropertyDescriptor(SetPrototype, 'size').get;
  const SetIteratorNext = ObjectGetPrototypeOf(new $Set()[SymbolIterator]()).next;
  const RegExpExec = global.RegExp.prototype.exec;
  const StringSlice = global.String.prototype.slice;
  const TypedArray = ObjectGetPrototypeOf(global.Int8Array);
  const TypedArrayPrototype = TypedArray.prototype;
  const TypedArraySet = TypedArrayPrototype.set;
  const TypedArraySort = TypedArrayPrototype.sort;
  const TypedArrayReverse = TypedArrayPrototype.reverse;
  const TypedArrayLength = ReflectGetOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
  const TypedArrayName =
      ReflectGetOwnPropertyDescriptor(TypedArrayPrototype, SymbolToStringTag).get;
  // %TypedArray%.prototype.at(Infinity) does exactly ValidateTypedArray and then nothing (it
  // throws for a detached buffer and for anything not a typed array); values() is the fallback.
  const TypedArrayValidator = TypedArrayPrototype.at || TypedArrayPrototype.values;
  const IteratorPrototype = ObjectGetPrototypeOf(ObjectGetPrototypeOf([][SymbolIterator]()));

  const EMPTY = [];  // an argument list for Reflect.apply; never exposed
  const INFINITY_ARGUMENT = [Infinity];
  const MAX_SAFE_INTEGER = 9007199254740991;
  const MAX_ARRAY_LENGTH = 4294967295;
  const DONE = ObjectCreate(null);  // what the iterator steps return for a finished iterator

  const typedArrayConstructors = ObjectCreate(null);
  const typedArrayNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
    'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
    'BigUint64Array'];
  for (let i = 0; i < typedArrayNames.length; i++) {
    const name = typedArrayNames[i];
    if (typeof global[name] === 'function') typedArrayConstructors[name] = global[name];
  }

  // Private prototypes that new sets, maps and set iterators carry while this code uses them.
  const InternalSetPrototype = {__proto__: null, add: SetAdd, delete: SetDelete};
  const InternalSetIteratorPrototype = {__proto__: null, next: SetIteratorNext};
  const InternalMapPrototype = {__proto__: null, get: MapPrototype.get, set: MapPrototype.set};

  // ---- Abstract operations --------------------------------------------------------------------
  function isObject(value) {
    return (typeof value === 'object' && value !== null) || typeof value === 'function';
  }

  function toObject(value, method) {
    if (value === undefined || value === null) {
      throw new $TypeError(method + ' called on null or undefined');
    }
    return $Object(value);
  }

  function toIntegerOrInfinity(value) {
    const number = +value;
    if (number !== number || number === 0) return 0;
    return mathTrunc(number);
  }

  function lengthOfArrayLike(object) {
    const length = toIntegerOrInfinity(object.length);
    if (length <= 0) return 0;
    return length > MAX_SAFE_INTEGER ? MAX_SAFE_INTEGER : length;
  }

  function requireCallable(value, what) {
    if (typeof value !== 'function') throw new $TypeError(what + ' is not a function');
  }

  function dataDescriptor(value) {
    return {__proto__: null, value, writable: true, enumerable: true, configurable: true};
  }

  function createDataPropertyOrThrow(object, key, value) {
    if (!ReflectDefineProperty(object, key, dataDescriptor(value))) {
      throw new $TypeError('cannot define property ' + $String(key));
    }
  }

  // ToPropertyKey, running the key's conversion exactly once.
  function toPropertyKey(value) {
    if (isObject(value)) return ReflectOwnKeys({[value]: undefined})[0];
    return typeof value === 'symbol' ? value : '' + value;
  }

  // IsConstructor, without touching the value: a proxy has [[Construct]] exactly when its target
  // has, and the trap answers before anything of the target runs.
  const constructProbe = {
    __proto__: null,
    construct() {
      return constructProbe;
    },
  };
  function isConstructor(value) {
    if (typeof value !== 'function') return false;
    if (value === $Array) return true;
    try {
      new new $Proxy(value, constructProbe)();
      return true;
    } catch (error) {
      return false;
    }
  }

  // An array under construction (ArrayCreate): filled by index, then finishArray.
  function arrayCreate(length) {
    if (length > MAX_ARRAY_LENGTH) throw new $RangeError('invalid array length');
    const array = [];
    ObjectSetPrototypeOf(array, null);
    return array;
  }

  function finishArray(array) {
    ObjectSetPrototypeOf(array, ArrayPrototype);
    return array;
  }

  function getMethod(value, key) {
    const method = value[key];
    if (method === undefined || method === null) return undefined;
    requireCallable(method, 'the iterator\'s ' + $String(key) + ' method');
    return method;
  }

  // IteratorStepValue: the next value, or DONE.
  function iteratorStepValue(iterator, next) {
    if (next === HelperNext) return helperResume(iterator);
    const result = ReflectApply(next, iterator, EMPTY);
    if (!isObject(result)) throw new $TypeError('iterator result is not an object');
    if (result.done) return DONE;
    return result.value;
  }

  // IteratorStep: true while the iterator has produced a result (its value left unread).
  function iteratorStep(iterator, next) {
    if (next === HelperNext) return helperResume(iterator) !== DONE;
    const result = ReflectApply(next, iterator, EMPTY);
    if (!isObject(result)) throw new $TypeError('iterator result is not an object');
    return !result.done;
  }

  // IteratorClose for a normal or return completion: errors of `return` propagate.
  function iteratorClose(iterator) {
    const method = getMethod(iterator, 'return');
    if (method === undefined) return;
    const result = ReflectApply(method, iterator, EMPTY);
    if (!isObject(result)) throw new $TypeError('iterator return() result is not an object');
  }

  // IteratorClose for a throw completion: the original error wins, so errors here are dropped.
  function iteratorCloseOnThrow(iterator) {
    try {
      const method = iterator.return;
      if (method !== undefined && method !== null) ReflectApply(method, iterator, EMPTY);
    } catch (ignored) {
      // The completion being propagated is the caller's error.
    }
  }

  // GetIteratorFlattenable: the iterator object; the caller reads its next method.
  function getIteratorFlattenable(value, allowStrings) {
    if (!isObject(value) && !(allowStrings && typeof value === 'string')) {
      throw new $TypeError('value is not an iterator or iterable');
    }
    const method = getMethod(value, SymbolIterator);
    const iterator = method === undefined ? value : ReflectApply(method, value, EMPTY);
    if (!isObject(iterator)) throw new $TypeError('iterator is not an object');
    return iterator;
  }

  function newPromiseCapability(C) {
    let resolve;
    let reject;
    const promise = new C((resolveFunction, rejectFunction) => {
      if (resolve !== undefined || reject !== undefined) {
        throw new $TypeError('promise capability executor already called');
      }
      resolve = resolveFunction;
      reject = rejectFunction;
    });
    requireCallable(resolve, 'promise resolve function');
    requireCallable(reject, 'promise reject function');
    return {promise, resolve, reject};
  }

  // Defines each of `methods` on `target` that it lacks (inherited properties count, except with
  // ownOnly), non-enumerable as the built-ins are.
  function defineMethods(target, methods, ownOnly) {
    const keys = ReflectOwnKeys(methods);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (ownOnly ? ReflectGetOwnPropertyDescriptor(target, key) !== undefined : key in target) {
        continue;
      }
      const descriptor = ReflectGetOwnPropertyDescriptor(methods, key);
      descriptor.enumerable = false;
      ObjectDefineProperty(target, key, descriptor);
    }
  }

  // ---- Array.prototype (ES2023) ---------------------------------------------------------------
  const arrayMethods = {
    findLast(predicate, thisArg = undefined) {
      const O = toObject(this, 'Array.prototype.findLast');
      const len = lengthOfArrayLike(O);
      requireCallable(predicate, 'Array.prototype.findLast: predicate');
      for (let k = len - 1; k >= 0; k--) {
        const kValue = O[k];
        if (thisArg === undefined ? predicate(kValue, k, O)
                                  : ReflectApply(predicate, thisArg, [kValue, k, O])) {
          return kValue;
        }
      }
      return undefined;
    },

    findLastIndex(predicate, thisArg = undefined) {
      const O = toObject(this, 'Array.prototype.findLastIndex');
      const len = lengthOfArrayLike(O);
      requireCallable(predicate, 'Array.prototype.findLastIndex: predicate');
      for (let k = len - 1; k >= 0; k--) {
        const kValue = O[k];
        if (thisArg === undefined ? predicate(kValue, k, O)
                                  : ReflectApply(predicate, thisArg, [kValue, k, O])) {
          return k;
        }
      }
      return -1;
    },

    toReversed() {
      const O = toObject(this, 'Array.prototype.toReversed');
      const len = lengthOfArrayLike(O);
      const A = arrayCreate(len);
      for (let k = 0; k < len; k++) A[k] = O[len - k - 1];
      return finishArray(A);
    },

    // The engine's own sort is stable and implements SortCompare (undefined last, the
    // comparator's result through ToNumber, NaN as +0); it sorts a dense copy read through holes.
    toSorted(comparefn) {
      if (comparefn !== undefined) requireCallable(comparefn, 'Array.prototype.toSorted: comparator');
      const O = toObject(this, 'Array.prototype.toSorted');
      const len = lengthOfArrayLike(O);
      const A = arrayCreate(len);
      for (let k = 0; k < len; k++) A[k] = O[k];
      ReflectApply(ArraySort, A, [comparefn]);
      return finishArray(A);
    },

    toSpliced(start, skipCount, ...items) {
      const argumentCount = arguments.length;
      const O = toObject(this, 'Array.prototype.toSpliced');
      const len = lengthOfArrayLike(O);
      const relativeStart = toIntegerOrInfinity(start);
      let actualStart;
      if (relativeStart < 0) actualStart = len + relativeStart > 0 ? len + relativeStart : 0;
      else actualStart = relativeStart < len ? relativeStart : len;
      const insertCount = items.length;
      let actualSkipCount;
      if (argumentCount === 0) {
        actualSkipCount = 0;
      } else if (argumentCount === 1) {
        actualSkipCount = len - actualStart;
      } else {
        const skip = toIntegerOrInfinity(skipCount);
        const most = len - actualStart;
        actualSkipCount = skip < 0 ? 0 : skip > most ? most : skip;
      }
      const newLen = len + insertCount - actualSkipCount;
      if (newLen > MAX_SAFE_INTEGER) {
        throw new $TypeError('Array.prototype.toSpliced: result length exceeds 2^53 - 1');
      }
      const A = arrayCreate(newLen);
      let i = 0;
      let r = actualStart + actualSkipCount;
      for (; i < actualStart; i++) A[i] = O[i];
      for (let j = 0; j < insertCount; j++) A[i++] = items[j];
      for (; i < newLen; i++, r++) A[i] = O[r];
      return finishArray(A);
    },

    with(index, value) {
      const O = toObject(this, 'Array.prototype.with');
      const len = lengthOfArrayLike(O);
      const relativeIndex = toIntegerOrInfinity(index);
      const actualIndex = relativeIndex >= 0 ? relativeIndex : len + relativeIndex;
      if (actualIndex >= len || actualIndex < 0) {
        throw new $RangeError('Array.prototype.with: index out of range');
      }
      const A = arrayCreate(len);
      for (let k = 0; k < len; k++) A[k] = k === actualIndex ? value : O[k];
      return finishArray(A);
    },
  };

  // ---- %TypedArray%.prototype (ES2023) --------------------------------------------------------
  // ValidateTypedArray; returns the length.
  function validateTypedArray(O) {
    ReflectApply(TypedArrayValidator, O, INFINITY_ARGUMENT);
    return ReflectApply(TypedArrayLength, O, EMPTY);
  }

  // TypedArrayCreateSameType holding a copy of O's elements (set() reads them without running
  // program code, as the specification's Get on an integer-indexed object does).
  function typedArrayCopy(O, len) {
    const A = new typedArrayConstructors[ReflectApply(TypedArrayName, O, EMPTY)](len);
    ReflectApply(TypedArraySet, A, [O]);
    return A;
  }

  const typedArrayMethods = {
    findLast(predicate, thisArg = undefined) {
      const O = this;
      const len = validateTypedArray(O);
      requireCallable(predicate, '%TypedArray%.prototype.findLast: predicate');
      for (let k = len - 1; k >= 0; k--) {
        const kValue = O[k];
        if (thisArg === undefined ? predicate(kValue, k, O)
                                  : ReflectApply(predicate, thisArg, [kValue, k, O])) {
          return kValue;
        }
      }
      return undefined;
    },

    findLastIndex(predicate, thisArg = undefined) {
      const O = this;
      const len = validateTypedArray(O);
      requireCallable(predicate, '%TypedArray%.prototype.findLastIndex: predicate');
      for (let k = len - 1; k >= 0; k--) {
        const kValue = O[k];
        if (thisArg === undefined ? predicate(kValue, k, O)
                                  : ReflectApply(predicate, thisArg, [kValue, k, O])) {
          return k;
        }
      }
      return -1;
    },

    toReversed() {
      const A = typedArrayCopy(this, validateTypedArray(this));
      ReflectApply(TypedArrayReverse, A, EMPTY);
      return A;
    },

    toSorted(comparefn) {
      if (comparefn !== undefined) {
        requireCallable(comparefn, '%TypedArray%.prototype.toSorted: comparator');
      }
      const A = typedArrayCopy(this, validateTypedArray(this));
      ReflectApply(TypedArraySort, A, [comparefn]);
      return A;
    },

    with(index, value) {
      const O = this;
      const len = validateTypedArray(O);
      const relativeIndex = toIntegerOrInfinity(index);
      const actualIndex = relativeIndex >= 0 ? relativeIndex : len + relativeIndex;
      const name = ReflectApply(TypedArrayName, O, EMPTY);
      // ToBigInt or ToNumber; asIntN's wrap-around is the one the element type applies anyway.
      const numericValue = name === 'BigInt64Array' || name === 'BigUint64Array'
                               ? $BigIntAsIntN(64, value) : +value;
      if (actualIndex < 0 || actualIndex >= ReflectApply(TypedArrayLength, O, EMPTY)) {
        throw new $RangeError('%TypedArray%.prototype.with: index out of range');
      }
      const A = typedArrayCopy(O, len);
      A[actualIndex] = numericValue;
      return A;
    },
  };

  // ---- Array.fromAsync (ES2026, widely shipped) -------------------------------------------------
  async function asyncIteratorCloseOnThrow(iterator) {
    try {
      const method = iterator.return;
      if (method !== undefined && method !== null) await ReflectApply(method, iterator, EMPTY);
    } catch (ignored) {
      // The completion being propagated is the caller's error.
    }
  }

  async function fromAsync(C, asyncItems, mapfn, thisArg) {
    const mapping = mapfn !== undefined;
    if (mapping) requireCallable(mapfn, 'Array.fromAsync: mapper');
    const usingAsyncIterator = getMethod(asyncItems, SymbolAsyncIterator);
    const usingSyncIterator =
        usingAsyncIterator === undefined ? getMethod(asyncItems, SymbolIterator) : undefined;
    if (usingAsyncIterator === undefined && usingSyncIterator === undefined) {
      return fromAsyncArrayLike(C, $Object(asyncItems), mapping, mapfn, thisArg);
    }
    const isSync = usingAsyncIterator === undefined;
    const iterator = ReflectApply(isSync ? usingSyncIterator : usingAsyncIterator, asyncItems, EMPTY);
    if (!isObject(iterator)) throw new $TypeError('Array.fromAsync: iterator is not an object');
    const next = iterator.next;
    const A = isConstructor(C) ? new C() : [];
    for (let k = 0; ; k++) {
      if (k >= MAX_SAFE_INTEGER) {
        const error = new $TypeError('Array.fromAsync: too many elements');
        if (isSync) iteratorCloseOnThrow(iterator);
        else await asyncIteratorCloseOnThrow(iterator);
        throw error;
      }
      let result = ReflectApply(next, iterator, EMPTY);
      if (!isSync) result = await result;
      if (!isObject(result)) throw new $TypeError('iterator result is not an object');
      const done = !!result.done;
      let value;
      if (isSync) {
        // What the async-from-sync iterator adds: the value is read and awaited even when done,
        // and a rejection closes the iterator unless it was done.
        value = result.value;
        try {
          value = await value;
        } catch (error) {
          if (!done) iteratorCloseOnThrow(iterator);
          throw error;
        }
      }
      if (done) {
        A.length = k;
        return A;
      }
      if (!isSync) value = result.value;
      try {
        if (mapping) value = await ReflectApply(mapfn, thisArg, [value, k]);
        createDataPropertyOrThrow(A, k, value);
      } catch (error) {
        if (isSync) iteratorCloseOnThrow(iterator);
        else await asyncIteratorCloseOnThrow(iterator);
        throw error;
      }
    }
  }

  async function fromAsyncArrayLike(C, arrayLike, mapping, mapfn, thisArg) {
    const len = lengthOfArrayLike(arrayLike);
    let A;
    if (isConstructor(C)) A = new C(len);
    else if (len > MAX_ARRAY_LENGTH) throw new $RangeError('invalid array length');
    else A = new $Array(len);
    for (let k = 0; k < len; k++) {
      let value = await arrayLike[k];
      if (mapping) value = await ReflectApply(mapfn, thisArg, [value, k]);
      createDataPropertyOrThrow(A, k, value);
    }
    A.length = len;
    return A;
  }

  const arrayConstructorMethods = {
    fromAsync(asyncItems, mapfn = undefined, thisArg = undefined) {
      return fromAsync(this, asyncItems, mapfn, thisArg);
    },
  };

  // ---- Object.groupBy, Map.groupBy (ES2024) ---------------------------------------------------
  function requireGroupByArguments(items, callbackfn, method) {
    if (items === undefined || items === null) {
      throw new $TypeError(method + ': items is null or undefined');
    }
    requireCallable(callbackfn, method + ': callback');
  }

  // A group's array: built with a null prototype, published by publishGroups.
  function newGroup(value, groups) {
    const group = [value];
    ObjectSetPrototypeOf(group, null);
    groups[groups.length] = group;
    return group;
  }

  function publishGroups(groups) {
    for (let i = 0; i < groups.length; i++) ObjectSetPrototypeOf(groups[i], ArrayPrototype);
  }

  const objectMethods = {
    groupBy(items, callbackfn) {
      requireGroupByArguments(items, callbackfn, 'Object.groupBy');
      const result = ObjectCreate(null);
      const groups = arrayCreate(0);
      let k = 0;
      // for-of is GetIterator and IteratorStepValue, and it closes the iterator when the body
      // throws: IfAbruptCloseIterator.
      for (const value of items) {
        const key = toPropertyKey(callbackfn(value, k));
        const group = result[key];
        if (group === undefined) result[key] = newGroup(value, groups);
        else group[group.length] = value;
        k++;
      }
      publishGroups(groups);
      return result;
    },
  };

  const mapConstructorMethods = {
    groupBy(items, callbackfn) {
      requireGroupByArguments(items, callbackfn, 'Map.groupBy');
      const result = new $Map();
      ObjectSetPrototypeOf(result, InternalMapPrototype);
      const groups = arrayCreate(0);
      let k = 0;
      for (const value of items) {
        let key = callbackfn(value, k);
        if (key === 0) key = 0;  // -0 becomes +0
        const group = result.get(key);
        if (group === undefined) result.set(key, newGroup(value, groups));
        else group[group.length] = value;
        k++;
      }
      publishGroups(groups);
      ObjectSetPrototypeOf(result, MapPrototype);
      return result;
    },
  };

  // ---- Promise.withResolvers (ES2024), Promise.try (ES2025) -----------------------------------
  const promiseMethods = {
    withResolvers() {
      return newPromiseCapability(this);
    },

    try(callbackfn, ...args) {
      const C = this;
      if (!isObject(C)) throw new $TypeError('Promise.try called on a non-object');
      const capability = newPromiseCapability(C);
      let value;
      try {
        value = ReflectApply(callbackfn, undefined, args);
      } catch (error) {
        ReflectApply(capability.reject, undefined, [error]);
        return capability.promise;
      }
      ReflectApply(capability.resolve, undefined, [value]);
      return capability.promise;
    },
  };

  // ---- String.prototype (ES2024) --------------------------------------------------------------
  // A lone surrogate: a lead not followed by a trail, or a trail not preceded by a lead.
  const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

  const stringMethods = {
    isWellFormed() {
      if (this === undefined || this === null) {
        throw new $TypeError('String.prototype.isWellFormed called on null or undefined');
      }
      return ReflectApply(RegExpExec, loneSurrogate, [`${this}`]) === null;
    },

    toWellFormed() {
      if (this === undefined || this === null) {
        throw new $TypeError('String.prototype.toWellFormed called on null or undefined');
      }
      const S = `${this}`;
      const input = [S];
      loneSurrogates.lastIndex = 0;
      let result = '';
      let last = 0;
      let match;
      while ((match = ReflectApply(RegExpExec, loneSurrogates, input)) !== null) {
        const index = match.index;
        result += ReflectApply(StringSlice, S, [last, index]) + '\uFFFD';
        last = index + 1;
      }
      if (last === 0) return S;
      return result + ReflectApply(StringSlice, S, [last]);
    },
  };

  // ---- Set.prototype (ES2025) -----------------------------------------------------------------
  // RequireInternalSlot(O, [[SetData]]); returns the size.
  function setSize(O) {
    return ReflectApply(SetSize, O, EMPTY);
  }

  function getSetRecord(other) {
    if (!isObject(other)) throw new $TypeError('the argument is not an object');
    const numSize = +other.size;
    if (numSize !== numSize) throw new $TypeError('the argument\'s size is not a number');
    const size = toIntegerOrInfinity(numSize);
    if (size < 0) throw new $RangeError('the argument\'s size is negative');
    const has = other.has;
    requireCallable(has, 'the argument\'s has');
    const keys = other.keys;
    requireCallable(keys, 'the argument\'s keys');
    return {object: other, size, has, keys};
  }

  // A live iterator over a set's elements: it sees elements added and skips elements deleted
  // while it runs, as the specification's walk over [[SetData]] by index does.
  function setIterator(set) {
    const iterator = ReflectApply(SetValues, set, EMPTY);
    ObjectSetPrototypeOf(iterator, InternalSetIteratorPrototype);
    return iterator;
  }

  function newSet() {
    const set = new $Set();
    ObjectSetPrototypeOf(set, InternalSetPrototype);
    return set;
  }

  function copyOfSet(O) {
    const set = newSet();
    const iterator = setIterator(O);
    for (let result = iterator.next(); !result.done; result = iterator.next()) {
      set.add(result.value);
    }
    return set;
  }

  function publishSet(set) {
    ObjectSetPrototypeOf(set, SetPrototype);
    return set;
  }

  function otherHas(record, value) {
    return !!ReflectApply(record.has, record.object, [value]);
  }

  function thisHas(O, value) {
    return ReflectApply(SetHas, O, [value]);
  }

  function otherKeys(record) {
    const iterator = ReflectApply(record.keys, record.object, EMPTY);
    if (!isObject(iterator)) throw new $TypeError('the argument\'s keys() is not an object');
    return iterator;
  }

  const setMethods = {
    union(other) {
      const O = this;
      setSize(O);
      const keys = otherKeys(getSetRecord(other));
      const next = keys.next;
      const result = copyOfSet(O);
      for (let value; (value = iteratorStepValue(keys, next)) !== DONE;) result.add(value);
      return publishSet(result);
    },

    intersection(other) {
      const O = this;
      setSize(O);
      const record = getSetRecord(other);
      const result = newSet();
      if (setSize(O) <= record.size) {
        const iterator = setIterator(O);
        for (let step = iterator.next(); !step.done; step = iterator.next()) {
          if (otherHas(record, step.value)) result.add(step.value);
        }
      } else {
        const keys = otherKeys(record);
        const next = keys.next;
        for (let value; (value = iteratorStepValue(keys, next)) !== DONE;) {
          if (thisHas(O, value)) result.add(value);
        }
      }
      return publishSet(result);
    },

    difference(other) {
      const O = this;
      setSize(O);
      const record = getSetRecord(other);
      const result = copyOfSet(O);
      if (setSize(O) <= record.size) {
        const iterator = setIterator(result);
        for (let step = iterator.next(); !step.done; step = iterator.next()) {
          if (otherHas(record, step.value)) result.delete(step.value);
        }
      } else {
        const keys = otherKeys(record);
        const next = keys.next;
        for (let value; (value = iteratorStepValue(keys, next)) !== DONE;) result.delete(value);
      }
      return publishSet(result);
    },

    symmetricDifference(other) {
      const O = this;
      setSize(O);
      const keys = otherKeys(getSetRecord(other));
      const next = keys.next;
      const result = copyOfSet(O);
      for (let value; (value = iteratorStepValue(keys, next)) !== DONE;) {
        if (thisHas(O, value)) result.delete(value);
        else result.add(value);
      }
      return publishSet(result);
    },

    isSubsetOf(other) {
      const O = this;
      setSize(O);
      const record = getSetRecord(other);
      if (setSize(O) > record.size) return false;
      const iterator = setIterator(O);
      for (let step = iterator.next(); !step.done; step = iterator.next()) {
        if (!otherHas(record, step.value)) return false;
      }
      return true;
    },

    isSupersetOf(other) {
      const O = this;
      setSize(O);
      const record = getSetRecord(other);
      if (setSize(O) < record.size) return false;
      const keys = otherKeys(record);
      const next = keys.next;
      for (let value; (value = iteratorStepValue(keys, next)) !== DONE;) {
        if (!thisHas(O, value)) {
          iteratorClose(keys);
          return false;
        }
      }
      return true;
    },

    isDisjointFrom(other) {
      const O = this;
      setSize(O);
      const record = getSetRecord(other);
      if (setSize(O) <= record.size) {
        const iterator = setIterator(O);
        for (let step = iterator.next(); !step.done; step = iterator.next()) {
          if (otherHas(record, step.value)) return false;
        }
      } else {
        const keys = otherKeys(record);
        const next = keys.next;
        for (let value; (value = iteratorStepValue(keys, next)) !== DONE;) {
          if (thisHas(O, value)) {
            iteratorClose(keys);
            return false;
          }
        }
      }
      return true;
    },
  };

  // ---- Iterator helpers (ES2025) --------------------------------------------------------------
  // The global Iterator: abstract, so only a subclass constructs it.
  const IteratorConstructor = function Iterator() {
    if (new.target === undefined || new.target === IteratorConstructor) {
      throw new $TypeError('Iterator is abstract: extend it, or use Iterator.from');
    }
    // OrdinaryCreateFromConstructor falls back to %Iterator.prototype%, not %Object.prototype%,
    // when new.target.prototype is not an object.
    if (ObjectGetPrototypeOf(this) === ObjectPrototype && !isObject(new.target.prototype)) {
      ObjectSetPrototypeOf(this, IteratorPrototype);
    }
  };

  // An iterator helper is a generator in the specification; here a small state machine. The
  // state lives in one record behind a private field, so next() and return() reject any other
  // receiver (RequireInternalSlot) and the helper has no visible own property.
  const STARTED = 0;  // suspended-start
  const YIELDED = 1;  // suspended-yield
  const RUNNING = 2;  // executing
  const FINISHED = 3;  // completed
  const MAP = 0;
  const FILTER = 1;
  const TAKE = 2;
  const DROP = 3;
  const FLAT_MAP = 4;

  class IteratorHelper {
    #state;

    constructor(kind, iterator, next, fn, remaining) {
      this.#state = {
        kind, iterator, next, fn, remaining, counter: 0, generator: STARTED,
        inner: undefined, innerNext: undefined,
      };
    }

    // One resumption, as next() performs it: the value yielded, or DONE. Helpers that consume a
    // helper call this directly: the same steps, without the result object in between.
    static resume(helper) {
      const s = helper.#state;
      if (s.generator === RUNNING) throw new $TypeError('the iterator helper is already running');
      if (s.generator === FINISHED) return DONE;
      s.generator = RUNNING;
      let value;
      try {
        value = helperStep(s);
      } catch (error) {
        s.generator = FINISHED;
        throw error;
      }
      s.generator = value === DONE ? FINISHED : YIELDED;
      return value;
    }

    next() {
      const value = IteratorHelper.resume(this);
      return value === DONE ? {value: undefined, done: true} : {value, done: false};
    }

    return() {
      const s = this.#state;
      if (s.generator === STARTED) {
        s.generator = FINISHED;
        iteratorClose(s.iterator);
        return {value: undefined, done: true};
      }
      if (s.generator === RUNNING) throw new $TypeError('the iterator helper is already running');
      if (s.generator === FINISHED) return {value: undefined, done: true};
      // Suspended at a yield: the return completion closes what the helper holds.
      s.generator = RUNNING;
      try {
        if (s.inner !== undefined) {
          try {
            iteratorClose(s.inner);
          } catch (error) {
            iteratorCloseOnThrow(s.iterator);
            throw error;
          }
        }
        iteratorClose(s.iterator);
      } finally {
        s.generator = FINISHED;
      }
      return {value: undefined, done: true};
    }
  }

  // What the iterator steps recognise to resume a helper without a result object.
  const HelperNext = IteratorHelper.prototype.next;
  const helperResume = IteratorHelper.resume;

  // One resumption of a helper's closure: the next value to yield, or DONE.
  function helperStep(s) {
    switch (s.kind) {
      case MAP: {
        const value = iteratorStepValue(s.iterator, s.next);
        if (value === DONE) return DONE;
        return callMapper(s, value);
      }
      case FILTER:
        for (;;) {
          const value = iteratorStepValue(s.iterator, s.next);
          if (value === DONE) return DONE;
          if (callMapper(s, value)) return value;
        }
      case TAKE: {
        const remaining = s.remaining;
        if (remaining === 0) {
          iteratorClose(s.iterator);
          return DONE;
        }
        if (remaining !== Infinity) s.remaining = remaining - 1;
        return iteratorStepValue(s.iterator, s.next);
      }
      case DROP:
        while (s.remaining > 0) {
          if (s.remaining !== Infinity) s.remaining--;
          if (!iteratorStep(s.iterator, s.next)) return DONE;
        }
        return iteratorStepValue(s.iterator, s.next);
      default:
        return flatMapStep(s);
    }
  }

  // Calls the helper's function with (value, counter); on a throw, closes the underlying iterator.
  function callMapper(s, value) {
    const fn = s.fn;
    try {
      return fn(value, s.counter++);
    } catch (error) {
      iteratorCloseOnThrow(s.iterator);
      throw error;
    }
  }

  function flatMapStep(s) {
    for (;;) {
      if (s.inner === undefined) {
        const value = iteratorStepValue(s.iterator, s.next);
        if (value === DONE) return DONE;
        const mapped = callMapper(s, value);
        try {
          const inner = getIteratorFlattenable(mapped, false);
          s.innerNext = inner.next;
          s.inner = inner;
        } catch (error) {
          iteratorCloseOnThrow(s.iterator);
          throw error;
        }
      }
      let innerValue;
      try {
        innerValue = iteratorStepValue(s.inner, s.innerNext);
      } catch (error) {
        iteratorCloseOnThrow(s.iterator);
        throw error;
      }
      if (innerValue !== DONE) return innerValue;
      s.inner = undefined;
      s.innerNext = undefined;
    }
  }

  // %WrapForValidIteratorPrototype%: what Iterator.from returns for an iterator that does not
  // inherit from Iterator.prototype.
  class WrapForValidIterator {
    #iterator;
    #next;

    constructor(iterator, next) {
      this.#iterator = iterator;
      this.#next = next;
    }

    next() {
      const iterator = this.#iterator;
      return ReflectApply(this.#next, iterator, EMPTY);
    }

    return() {
      const iterator = this.#iterator;
      const method = getMethod(iterator, 'return');
      if (method === undefined) return {value: undefined, done: true};
      return ReflectApply(method, iterator, EMPTY);
    }
  }

  // The receiver checks every Iterator.prototype method starts with. When an argument is invalid,
  // the receiver is closed before the error is thrown.
  function requireIteratorReceiver(O, method) {
    if (!isObject(O)) throw new $TypeError('Iterator.prototype.' + method + ' called on a non-object');
  }

  function requireCallableOrClose(O, fn, method) {
    if (typeof fn !== 'function') {
      iteratorCloseOnThrow(O);
      throw new $TypeError('Iterator.prototype.' + method + ': argument is not a function');
    }
  }

  function validateLimit(O, limit, method) {
    let numLimit;
    try {
      numLimit = +limit;
    } catch (error) {
      iteratorCloseOnThrow(O);
      throw error;
    }
    if (numLimit !== numLimit || toIntegerOrInfinity(numLimit) < 0) {
      iteratorCloseOnThrow(O);
      throw new $RangeError('Iterator.prototype.' + method + ': limit must be a non-negative number');
    }
    return toIntegerOrInfinity(numLimit);
  }

  function makeHelper(kind, O, fn, remaining) {
    return new IteratorHelper(kind, O, O.next, fn, remaining);
  }

  const iteratorPrototypeMethods = {
    map(mapper) {
      requireIteratorReceiver(this, 'map');
      requireCallableOrClose(this, mapper, 'map');
      return makeHelper(MAP, this, mapper, 0);
    },

    filter(predicate) {
      requireIteratorReceiver(this, 'filter');
      requireCallableOrClose(this, predicate, 'filter');
      return makeHelper(FILTER, this, predicate, 0);
    },

    take(limit) {
      requireIteratorReceiver(this, 'take');
      return makeHelper(TAKE, this, undefined, validateLimit(this, limit, 'take'));
    },

    drop(limit) {
      requireIteratorReceiver(this, 'drop');
      return makeHelper(DROP, this, undefined, validateLimit(this, limit, 'drop'));
    },

    flatMap(mapper) {
      requireIteratorReceiver(this, 'flatMap');
      requireCallableOrClose(this, mapper, 'flatMap');
      return makeHelper(FLAT_MAP, this, mapper, 0);
    },

    reduce(reducer /* , initialValue */) {
      const O = this;
      requireIteratorReceiver(O, 'reduce');
      requireCallableOrClose(O, reducer, 'reduce');
      const next = O.next;
      let accumulator;
      let counter;
      if (arguments.length < 2) {
        accumulator = iteratorStepValue(O, next);
        if (accumulator === DONE) {
          throw new $TypeError('Iterator.prototype.reduce of an empty iterator with no initial value');
        }
        counter = 1;
      } else {
        accumulator = arguments[1];
        counter = 0;
      }
      for (let value; (value = iteratorStepValue(O, next)) !== DONE; counter++) {
        try {
          accumulator = reducer(accumulator, value, counter);
        } catch (error) {
          iteratorCloseOnThrow(O);
          throw error;
        }
      }
      return accumulator;
    },

    toArray() {
      const O = this;
      requireIteratorReceiver(O, 'toArray');
      const next = O.next;
      const items = arrayCreate(0);
      for (let value; (value = iteratorStepValue(O, next)) !== DONE;) items[items.length] = value;
      return finishArray(items);
    },

    forEach(fn) {
      const O = this;
      requireIteratorReceiver(O, 'forEach');
      requireCallableOrClose(O, fn, 'forEach');
      const next = O.next;
      for (let value, counter = 0; (value = iteratorStepValue(O, next)) !== DONE; counter++) {
        try {
          fn(value, counter);
        } catch (error) {
          iteratorCloseOnThrow(O);
          throw error;
        }
      }
      return undefined;
    },

    some(predicate) {
      return findInIterator(this, predicate, 'some', true) !== DONE;
    },

    every(predicate) {
      return findInIterator(this, predicate, 'every', false) === DONE;
    },

    find(predicate) {
      const found = findInIterator(this, predicate, 'find', true);
      return found === DONE ? undefined : found;
    },
  };

  // some, every and find: the first value whose predicate result is `wanted` (the iterator is then
  // closed), or DONE.
  function findInIterator(O, predicate, method, wanted) {
    requireIteratorReceiver(O, method);
    requireCallableOrClose(O, predicate, method);
    const next = O.next;
    for (let value, counter = 0; (value = iteratorStepValue(O, next)) !== DONE; counter++) {
      let result;
      try {
        result = !!predicate(value, counter);
      } catch (error) {
        iteratorCloseOnThrow(O);
        throw error;
      }
      if (result === wanted) {
        iteratorClose(O);
        return value;
      }
    }
    return DONE;
  }

  // Iterator.prototype.constructor and [Symbol.toStringTag] are accessors, so that assigning them
  // on an object that inherits from Iterator.prototype creates an own property (the
  // specification's SetterThatIgnoresPrototypeProperties).
  function setIgnoringPrototype(thisValue, key, value) {
    if (!isObject(thisValue)) throw new $TypeError('cannot set ' + $String(key) + ' on a non-object');
    if (thisValue === IteratorPrototype) {
      throw new $TypeError('cannot assign to read only property ' + $String(key) + ' of Iterator.prototype');
    }
    if (ReflectGetOwnPropertyDescriptor(thisValue, key) === undefined) {
      createDataPropertyOrThrow(thisValue, key, value);
    } else {
      thisValue[key] = value;
    }
  }

  const iteratorPrototypeAccessors = {
    get constructor() {
      return realmIterator;
    },
    set constructor(value) {
      setIgnoringPrototype(this, 'constructor', value);
    },
    get [SymbolToStringTag]() {
      return 'Iterator';
    },
    set [SymbolToStringTag](value) {
      setIgnoringPrototype(this, SymbolToStringTag, value);
    },
  };

  // The realm's Iterator: a newer engine's own, or the one defined here.
  const realmIterator =
      typeof global.Iterator === 'function' ? global.Iterator : IteratorConstructor;

  const iteratorConstructorMethods = {
    from(O) {
      const iterator = getIteratorFlattenable(O, true);
      const next = iterator.next;
      if (ReflectApply(ObjectIsPrototypeOf, IteratorPrototype, [iterator])) return iterator;
      return new WrapForValidIterator(iterator, next);
    },
  };

  function installIterator() {
    for (let i = 0; i < 2; i++) {
      const prototype = i === 0 ? IteratorHelper.prototype : WrapForValidIterator.prototype;
      ObjectSetPrototypeOf(prototype, IteratorPrototype);
      delete prototype.constructor;
    }
    ObjectDefineProperty(IteratorHelper.prototype, SymbolToStringTag, {
      __proto__: null, value: 'Iterator Helper', writable: false, enumerable: false,
      configurable: true,
    });
    defineMethods(IteratorPrototype, iteratorPrototypeMethods, false);
    defineMethods(IteratorPrototype, iteratorPrototypeAccessors, true);
    if ('Iterator' in global) return;
    IteratorConstructor.prototype = IteratorPrototype;
    ObjectDefineProperty(IteratorConstructor, 'prototype', {__proto__: null, writable: false});
    defineMethods(IteratorConstructor, iteratorConstructorMethods, false);
    ObjectDefineProperty(global, 'Iterator', {
      __proto__: null, value: IteratorConstructor, writable: true, enumerable: false,
      configurable: true,
    });
  }

  // ---- Installation ---------------------------------------------------------------------------
  function installArrayUnscopables() {
    const unscopables = ArrayPrototype[SymbolUnscopables];
    const names = ['findLast', 'findLastIndex', 'toReversed', 'toSorted', 'toSpliced'];
    for (let i = 0; i < names.length; i++) {
      if (!(names[i] in unscopables)) createDataPropertyOrThrow(unscopables, names[i], true);
    }
  }

  defineMethods(ArrayPrototype, arrayMethods, false);
  installArrayUnscopables();
  defineMethods(TypedArrayPrototype, typedArrayMethods, false);
  defineMethods($Array, arrayConstructorMethods, false);
  defineMethods($Object, objectMethods, false);
  defineMethods($Map, mapConstructorMethods, false);
  defineMethods($Promise, promiseMethods, false);
  defineMethods(global.String.prototype, stringMethods, false);
  defineMethods(SetPrototype, setMethods, false);
  installIterator();
})
