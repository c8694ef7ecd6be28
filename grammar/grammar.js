const C = require('tree-sitter-c/grammar');
module.exports = grammar(C, { name: 'opencl', rules: {} });
