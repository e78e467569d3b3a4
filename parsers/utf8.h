#pragma once

// UTF-8 validation lives in base/ (the logger needs it too).
#include "base/utf8.h"
