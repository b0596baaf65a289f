// One message of a trace: a send matched with its receive (ccs.hpp extracts them).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tac3map {

struct Communication {
  int src = 0;
  int dst = 0;
  std::uint64_t bytes = 0;
  std::int64_t tag = 0;
  std::size_t sendLine = 0;  // trace line of the send side
  std::size_t recvLine = 0;  // trace line of the receive side
  int level = 0;             // longest precedence chain ending here
  int sendFile = 0;          // Trace::files index of the send side's file (Event::file)
  // The sender goes on once it has posted it (CcsOptions::eagerSend): a blocking send returns
  // and an isend's wait completes without waiting for the transfer, as SMPI's detached sends
  // do. Its sender's later messages do not wait for it; its receiver's still do.
  bool eager = false;
};

}  // namespace tac3map
