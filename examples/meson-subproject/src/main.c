void print_fields(void);
void print_spawns(void);
void print_potions(void);
void print_assets(const char *dir);

int main(void)
{
    print_fields();
    print_spawns();
    print_potions();
    print_assets(CONTENT_DIR);
    return 0;
}
