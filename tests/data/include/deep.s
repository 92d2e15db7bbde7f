.include "deep.s"
