(function installStandardLibrary(global) {
  'use strict';
})
