// a includes b includes a
.include "cycle_b.s"
