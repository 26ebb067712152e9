// Floor for `quire --version`: a Swift program with FoundationEssentials, runtime linked in
// (swiftc -O -static-stdlib), that prints one line.
import FoundationEssentials

print(Date.now.timeIntervalSince1970 > 0 ? "0.1.0" : "")
