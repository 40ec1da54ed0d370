#include "content.h"
