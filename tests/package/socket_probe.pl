#!/usr/bin/perl
# Connects to each unix socket named on standard input, one path a line, and prints
# "connected PATH" or "refused PATH: ERROR": what a process can reach, seen from inside it.
use strict;
use warnings;
use Socket;
while (my $path = <STDIN>) {
  chomp $path;
  next unless length $path;
  socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
  if (connect($s, pack_sockaddr_un($path))) {
    print "connected $path\n";
  } else {
    print "refused $path: $!\n";
  }
  close $s;
}
