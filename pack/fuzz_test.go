package pack

import ()
