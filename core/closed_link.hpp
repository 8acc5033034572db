#pragma once
// One link an impact closed, named as an event-driven form's jump log names it (core/jump_log.hpp:
// LoggedSwitch's element and closing_rate), so that a time-stepping scheme's record of the impulses it
// applied (TimeStepper::applied_impacts) can be read link by link against the same reference as an
// event-driven method's record (issue 48: one rule for the cascade, whichever family ran it).

namespace tb {

struct ClosedLink {
  int element = 0;            // the one-sided row, counted among the form's one-sided rows only (the jump log's numbering)
  double closing_rate = 0.0;  // G_i v- / constraint_scale_i before the impulse (1/s on a link: its closing speed over its length)
};

}  // namespace tb
