.include "./sub/../cycle_a.s"
