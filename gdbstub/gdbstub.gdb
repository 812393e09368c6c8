# gdbstub.gdb: makes gdb show the new place after gdbstub's monitor goto
# and monitor restart (gdbstub(1)). gdb re-reads registers and memory only
# when the program stops; a monitor command is not a stop, so this hook
# drops what gdb holds after each one (for any remote, a harmless re-read).
define hookpost-monitor
  maintenance flush register-cache
  maintenance flush dcache
end
