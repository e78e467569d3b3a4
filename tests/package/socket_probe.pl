#!/usr/bin/perl
# Connects to each unix socket named on standard input, one path a line, and prints
# "connected PATH" or "refused PATH: ERROR": what a process can reach, seen from inside it.
# A socket of another type (journald's and systemd's notify sockets are datagram sockets)
# refuses a stream connection with EPROTOTYPE: each type is tried in turn.
use strict;
use warnings;
use Errno qw(EPROTOTYPE);
use Socket;
while (my $path = <STDIN>) {
  chomp $path;
  next unless length $path;
  my $error;
  for my $type (SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET) {
    socket(my $s, AF_UNIX, $type, 0) or die "socket: $!";
    my $ok = connect($s, pack_sockaddr_un($path));
    $error = $!;
    close $s;
    if ($ok) { undef $error; last; }
    last unless $error == EPROTOTYPE;
  }
  print defined $error ? "refused $path: $error\n" : "connected $path\n";
}
