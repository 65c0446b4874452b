#ifndef CHCI_H
#define CHCI_H
int chci_placeholder(void);
#endif
