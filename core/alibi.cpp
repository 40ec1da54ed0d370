#include "alibi.h"
