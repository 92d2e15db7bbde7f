
  .include "no_such_file.ptx"
